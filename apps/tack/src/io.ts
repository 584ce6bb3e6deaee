// The streams a command writes to, with secrets redacted on the way out (90-quality security 1).
import { createRedactor } from './secrets.ts'

export interface CommandIO {
  readonly env: NodeJS.ProcessEnv
  readonly cwd: string
  out(text: string): void
  err(text: string): void
  readStdin(): Promise<string>
  /** Redact the values of these variables too (endpoint key variables, known after config loads). */
  protectSecrets?(names: Iterable<string>): void
}

export function processIO(env: NodeJS.ProcessEnv): CommandIO {
  const redact = createRedactor(env)
  return {
    env,
    cwd: process.cwd(),
    out: (text) => process.stdout.write(redact(text)),
    err: (text) => process.stderr.write(redact(text)),
    protectSecrets: (names) => redact.protect(names),
    readStdin: async () => {
      const chunks: Buffer[] = []
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
      return Buffer.concat(chunks).toString('utf8')
    },
  }
}
