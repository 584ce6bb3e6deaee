// The environment a stdio server starts with (spec 55-mcp.md M7): the minimum the SDK documents for its
// stdio transport (on POSIX HOME, LOGNAME, PATH, SHELL, TERM, USER, as sudo keeps them; a value that is
// a shell function, `() {…`, is left out), less any variable declared secret in `ctx.secrets`, plus the
// server's own `env` — never tack's whole environment with the provider keys. Kept free of the SDK's
// imports, so boot can spawn a server before loading the client (early-spawn.ts).

const INHERITED =
  process.platform === 'win32'
    ? [
        'APPDATA',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PROCESSOR_ARCHITECTURE',
        'SYSTEMDRIVE',
        'SYSTEMROOT',
        'TEMP',
        'USERNAME',
        'USERPROFILE',
        'PROGRAMFILES',
      ]
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER']

export function serverEnvironment(
  own: Record<string, string> | undefined,
  secretVariables: readonly string[],
): Record<string, string> {
  const env: Record<string, string> = {}
  for (const name of INHERITED) {
    const value = process.env[name]
    if (value !== undefined && !value.startsWith('()') && !secretVariables.includes(name)) env[name] = value
  }
  return { ...env, ...own }
}
