// Secrets never reach output (90-quality security 1). Providers get keys only through the
// environment; as defence in depth every line tack prints passes through `redact`, which replaces the
// value of any secret-looking variable of the environment, and every value a plugin declared
// (`ctx.secrets`, e.g. an MCP server's literal `env` value), with the kernel's `secretRedactor`.
import { MIN_SECRET_LENGTH, type SecretRedactor, secretRedactor } from '@tack/kernel'

export const SECRET_NAME = /KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL/i

/**
 * The values to redact: of every secret-looking variable, and of every variable in `names` whatever it
 * is called (the variables configured endpoints read their keys from, e.g. `apiKeyEnv: GPU_PASS`).
 */
export function secretValues(env: NodeJS.ProcessEnv, names: Iterable<string> = []): string[] {
  const named = new Set(names)
  const values: string[] = []
  for (const [name, value] of Object.entries(env)) {
    if (value && value.length >= MIN_SECRET_LENGTH && (SECRET_NAME.test(name) || named.has(name)))
      values.push(value)
  }
  // Longest first, so a secret that contains another is replaced whole.
  return values.sort((a, b) => b.length - a.length)
}

/** The kernel's `SecretRedactor` (with `openTail`), over values that grow as a command learns them. */
export interface Redactor extends SecretRedactor {
  /**
   * Also redacts the values of these variables, and these values, from now on (known once the config is
   * loaded and the plugins have declared theirs).
   */
  protect(names: Iterable<string>, values?: Iterable<string>): void
}

export function createRedactor(env: NodeJS.ProcessEnv): Redactor {
  const names = new Set<string>()
  const declared = new Set<string>()
  let redactor = secretRedactor(secretValues(env))
  const redact = (text: string) => redactor(text)
  return Object.assign(redact, {
    openTail: (text: string) => redactor.openTail(text),
    protect(more: Iterable<string>, moreValues: Iterable<string> = []) {
      for (const name of more) names.add(name)
      for (const value of moreValues) declared.add(value)
      redactor = secretRedactor([...secretValues(env, names), ...declared])
    },
  })
}
