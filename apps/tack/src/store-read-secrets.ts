// What a command that only reads the session store must still redact. A full boot declares its secrets
// as it loads (agent-boot.ts): the model endpoints' key variables (`apiKeyEnv: GPU_PASS`, whatever the
// name), the names in `$TACK_HOME/.env`, and what plugins declare (`ctx.secrets`: the PostgreSQL store's
// password). A store-only boot — `tack sessions`, `tack rewind`, `tack serve`, the library's reads —
// loads no endpoints nor the `.env` plugin, so a log it prints from could show a value its redactor never
// learned (docs/decisions/0380-library-events-redacted.md).
import { readEnvFile } from './env-file.ts'
import { endpointKeyVariables } from './mcp/mask.ts'

interface DeclaredSecrets {
  variables(): Iterable<string>
  values(): Iterable<string>
}

export interface StoreReadSecrets {
  /** Variables whose values are secrets whatever they are called. */
  readonly names: readonly string[]
  /** Values declared outright. */
  readonly values: readonly string[]
}

export function storeReadSecrets(
  plugins: Readonly<Record<string, unknown>>,
  envFile: string,
  declared: DeclaredSecrets,
): StoreReadSecrets {
  // The file's values too, not only its names: a variable of the same name set in the shell wins in the
  // environment, and the file's value (which a session may have seen) would then go unnamed.
  const envFileValues = readEnvFile(envFile)
  return {
    names: [...endpointKeyVariables(plugins), ...Object.keys(envFileValues), ...declared.variables()],
    values: [...Object.values(envFileValues), ...declared.values()],
  }
}
