// A dynamic import that runs in Node's own loader. `loader.ts` loads this file with `require`, so a
// test runner that rewrites `import()` in the modules it serves never takes over a mod's module graph
// (and with it the resolve hook and the `claude-code` shim).
export function nativeImport(url: string): Promise<unknown> {
  return import(url)
}
