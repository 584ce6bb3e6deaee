// Whether this code runs from the bundle (docs/decisions/0326-one-bundle-per-entry.md): false in the
// sources and the per-file build; scripts/bundle.ts replaces this module with `true` in the bundle.
export const BUNDLED: boolean = false
