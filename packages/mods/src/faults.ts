// A skipped hook (65-mod-host.md requirement 8): the kinds, and the error thrown inside the
// dispatcher to carry one from where it is found to where the skip rule applies.
export type FaultKind = 'throw' | 'timeout' | 'shape' | 'pinned'

export interface ModFault {
  readonly mod: string
  readonly event: string
  readonly kind: FaultKind
  readonly message: string
}

export class HookFault extends Error {
  override readonly name = 'HookFault'
  readonly kind: FaultKind
  constructor(kind: FaultKind, message: string) {
    super(message)
    this.kind = kind
  }
}
