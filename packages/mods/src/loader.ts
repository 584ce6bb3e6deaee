// Per-session module instances (65-mod-host.md requirement 2). A mod keeps session state in module
// variables, so each session imports its own copy: the entry URL carries `?tack-mod-instance=<id>` and
// a resolve hook hands the same query to the mod's relative imports (otherwise they would be shared).
// The same hook maps the bare specifier `claude-code` to tack's shim. Installed once per process with
// Node's in-thread `module.registerHooks`.
import { createRequire, registerHooks } from 'node:module'
import { pathToFileURL } from 'node:url'

const QUERY = 'tack-mod-instance'
let installed = false

function shimUrl(): string {
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js'
  return new URL(`./shim.${ext}`, import.meta.url).href
}

export function installModLoader(): void {
  if (installed) return
  installed = true
  const shim = shimUrl()
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier === 'claude-code' || specifier.startsWith('claude-code/'))
        return { url: shim, shortCircuit: true }
      const parent = context.parentURL
        ? URL.canParse(context.parentURL) && new URL(context.parentURL)
        : undefined
      const instance = parent ? parent.searchParams.get(QUERY) : null
      const resolved = nextResolve(specifier, context)
      if (instance === null || !(specifier.startsWith('./') || specifier.startsWith('../'))) return resolved
      const url = new URL(resolved.url)
      url.searchParams.set(QUERY, instance)
      return { ...resolved, url: url.href }
    },
  })
}

// Loaded through Node's own `require` (Node 22.12+ requires ES modules), so its `import()` is native
// even where a test runner serves this file (native-import.ts).
const { nativeImport } = createRequire(import.meta.url)(
  `./native-import.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`,
) as { nativeImport: (url: string) => Promise<unknown> }

/** Imports a fresh instance of the mod at `entry`, keyed by `instance`. */
export async function importInstance(entry: string, instance: string): Promise<Record<string, unknown>> {
  installModLoader()
  const url = pathToFileURL(entry)
  url.searchParams.set(QUERY, instance)
  return (await nativeImport(url.href)) as Record<string, unknown>
}
