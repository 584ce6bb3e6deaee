// JSON Schemas of Codex's hook inputs (`fixtures/codex-hook-input/`, written from protocols.md §B.3 and
// Codex's generated input schemas, `additionalProperties: false`): one validator per event tack fires.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import AjvModule, { type ValidateFunction } from 'ajv'
import { CODEX_POINTS, type CodexPoint, snakeEvent } from '../src/events.ts'

// ajv is CommonJS; under ESM its class is the default export's `default`.
const Ajv = ((AjvModule as unknown as { default?: typeof AjvModule }).default ??
  AjvModule) as typeof AjvModule

const FIXTURES = join(import.meta.dirname, 'fixtures', 'codex-hook-input')

let loaded: Promise<Record<CodexPoint, ValidateFunction>> | undefined

/** A validator per point, from `<kebab-event>.input.schema.json`. */
export function codexInputValidators(): Promise<Record<CodexPoint, ValidateFunction>> {
  loaded ??= (async () => {
    const ajv = new Ajv({ allErrors: true, strict: false })
    const out = {} as Record<CodexPoint, ValidateFunction>
    for (const point of CODEX_POINTS) {
      const file = `${snakeEvent(point).replaceAll('_', '-')}.input.schema.json`
      out[point] = ajv.compile(JSON.parse(await readFile(join(FIXTURES, file), 'utf8')))
    }
    return out
  })()
  return loaded
}

/** The schema errors of `payload` against its event's schema (none: it validates). */
export async function payloadSchemaErrors(payload: Record<string, unknown>): Promise<unknown[]> {
  const validate = (await codexInputValidators())[payload.hook_event_name as CodexPoint]
  if (!validate) return [`no schema for ${String(payload.hook_event_name)}`]
  return validate(payload) ? [] : [...(validate.errors ?? [])]
}
