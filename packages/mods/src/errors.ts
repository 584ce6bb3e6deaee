// A mod that cannot load: the message always names the mod (or its folder) and the cause, so a
// person reading stderr knows which folder to fix (65-mod-host.md requirement 1).
export class ModLoadError extends Error {
  override readonly name = 'ModLoadError'
  readonly mod: string
  constructor(mod: string, cause: string) {
    super(`mod "${mod}": ${cause}`)
    this.mod = mod
  }
}
