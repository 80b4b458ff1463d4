export default function Home() {
  return <a href="/table">table</a>
}
