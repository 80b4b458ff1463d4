type Level = 'debug' | 'info' | 'warn' | 'error'
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }

export type Logger = {
  [L in Level]: (msg: string, fields?: Record<string, unknown>) => void
} & { child(fields: Record<string, unknown>): Logger }

/** JSON lines on stdout; one object per event. */
export function createLogger(level: Level | 'silent' = 'info', base: Record<string, unknown> = {}, write: (line: string) => void = (line) => process.stdout.write(line + '\n')): Logger {
  const emit = (lvl: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < ORDER[level]) return
    write(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...base, ...fields }, errorReplacer))
  }
  return {
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    child: (fields) => createLogger(level, { ...base, ...fields }, write),
  }
}

function errorReplacer(_key: string, value: unknown) {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack }
  return value
}
