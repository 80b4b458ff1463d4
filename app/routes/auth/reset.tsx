export default function Reset() {
  return <main className="p-8">Password reset</main>
}
