// tack's root context: cordis's `Context` with the seam registry and the secrets registry installed
// before any plugin can register a listener or declare a secret. Create every root with this class
// (`new Context()` from `@tack/kernel`); a seam fired on a plain cordis root fails with a message saying so.
import { Context as CordisContext } from 'cordis'
import { installSeamRegistry } from './seam-registry.ts'
import { installSecretsRegistry } from './secrets.ts'

export class Context extends CordisContext {
  constructor() {
    super()
    installSeamRegistry(this)
    installSecretsRegistry(this)
  }
}
