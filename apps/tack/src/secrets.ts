// Secrets never reach output (90-quality security 1). Providers get keys only through the
// environment; as defence in depth every line tack prints passes through `redact`, which replaces the
// value of any secret-looking variable of the environment.
const SECRET_NAME = /KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL/i

export function secretValues(env: NodeJS.ProcessEnv): string[] {
  const values: string[] = []
  for (const [name, value] of Object.entries(env)) {
    if (value && value.length >= 8 && SECRET_NAME.test(name)) values.push(value)
  }
  // Longest first, so a secret that contains another is replaced whole.
  return values.sort((a, b) => b.length - a.length)
}

export function createRedactor(env: NodeJS.ProcessEnv): (text: string) => string {
  const values = secretValues(env)
  if (values.length === 0) return (text) => text
  return (text) => {
    let out = text
    for (const v of values) if (out.includes(v)) out = out.split(v).join('[redacted]')
    return out
  }
}
