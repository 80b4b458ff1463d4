import type { Config } from '@react-router/dev/config'

// The baseline of bench:render: React Router's own render, built into bench/out/baseline.
export default {
  appDirectory: 'app',
  buildDirectory: '../out/baseline',
  ssr: true,
} satisfies Config
