// The environment policy of model-run commands (TL-17, 90-quality security 2). A command the model
// wrote must not be able to read the user's credentials from its environment, so variables whose
// names look secret are removed unless explicitly allowed; and output meant for a model reads best
// without colour or an interactive pager. Trusted callers (hooks, TL-33) skip this policy entirely.

/** Name fragments (matched case-insensitively, anywhere in the name) that mark a variable as secret. */
export const SECRET_NAME_PARTS = Object.freeze(['KEY', 'SECRET', 'TOKEN', 'PASSWORD', 'CREDENTIAL'] as const)

const SECRET_NAME = new RegExp(SECRET_NAME_PARTS.join('|'), 'i')

/** Set on every model-run command, over whatever the environment had. */
export const COMMAND_ENV_OVERRIDES = Object.freeze({
  NO_COLOR: '1',
  TERM: 'dumb',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
})

/** Whether a variable name looks like it holds a secret (e.g. `FOO_TOKEN`, `api_key`, `MONKEY`). */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name)
}

/**
 * A new environment for a model-run command: `env` without secret-looking variables (except names in
 * `allow`, matched exactly and case-sensitively), without the names in `deny` whatever they look like
 * (the variables configured endpoints read their keys from; `allow` does not bring them back) and
 * without undefined values, plus `COMMAND_ENV_OVERRIDES`. `env` is not modified.
 */
export function scrubEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  allow: readonly string[] = [],
  deny: readonly string[] = [],
): Record<string, string> {
  const allowed = new Set(allow)
  const denied = new Set(deny)
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || denied.has(name)) continue
    if (isSecretName(name) && !allowed.has(name)) continue
    out[name] = value
  }
  return Object.assign(out, COMMAND_ENV_OVERRIDES)
}
