export default function MyProfile() {
  return null
}
