// `${VAR}` and `${VAR:-default}` in a `.mcp.json` value, as Claude Code expands them: the variable's
// value from the run's environment, else the default; a variable that is unset and has no default is
// an error naming the variable (the caller names the file, server and key). `$VAR` without braces is
// left as written, so a shell command in `args` keeps its own `$1`.
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g

export type Expanded =
  | { readonly ok: true; readonly value: string; readonly variables: readonly string[] }
  | { readonly ok: false; readonly variable: string }

export function expandVariables(text: string, env: NodeJS.ProcessEnv): Expanded {
  const variables: string[] = []
  let missing: string | undefined
  const value = text.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const set = env[name]
    // Claude Code (and a shell's `:-`) takes the default for an empty variable too.
    if (set !== undefined && set !== '') {
      variables.push(name)
      return set
    }
    if (fallback !== undefined) return fallback
    missing ??= name
    return whole
  })
  return missing !== undefined ? { ok: false, variable: missing } : { ok: true, value, variables }
}
