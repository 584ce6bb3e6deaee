// The module a mod's `import … from 'claude-code'` resolves to under tack (65-mod-host.md requirement 1).
// Type imports vanish when Node strips types; the runtime exports exist so an import binds, and throw
// when called, because tack has no `$.state` noun to back them.
const unavailable = (name: string) =>
  function notAvailable(): never {
    throw new Error(`claude-code: ${name}() is not available in tack`)
  }

export const atom = unavailable('atom')
export const derive = unavailable('derive')
export const memberOf = unavailable('memberOf')
export const read = unavailable('read')
export const update = unavailable('update')
export const h = unavailable('h')
export const Fragment = unavailable('Fragment')
