// A provider's own model list (85-skills-and-commands.md I3): `GET {baseUrl}/models` on OpenAI, DeepSeek and
// OpenAI-compatible servers (Bearer key), `GET {baseUrl}/models` on Anthropic (`x-api-key`,
// `anthropic-version`). All answer `{data: [{id}, …]}`. Asked only when a picker opens, bounded by a short
// timeout, and its failure is one line with every credential redacted — the key never reaches a message.
import type { ProviderKind } from './endpoints.ts'
import { redact } from './secrets.ts'

/** How long a model list may take before the picker says it did not come. */
export const MODEL_LIST_TIMEOUT_MS = 5000
/** At most this many ids are taken from one answer (a gateway may list thousands). */
export const MODEL_LIST_MAX = 500
const ANTHROPIC_VERSION = '2023-06-01'

export interface ModelListTarget {
  readonly kind: ProviderKind
  readonly baseUrl: string
  readonly apiKey?: string
  readonly headers: Readonly<Record<string, string>>
}

// OpenAI's list holds embeddings, speech, image and moderation models, none of which can chat.
const NOT_CHAT =
  /(embedding|tts|whisper|dall-e|davinci|babbage|moderation|transcribe|audio|realtime|image|search|computer-use)/

/** The ids of `target`'s models, sorted; throws an Error whose message is safe to show. */
export async function fetchProviderModels(
  target: ModelListTarget,
  opts: { readonly signal?: AbortSignal; readonly timeoutMs?: number; readonly fetch?: typeof fetch } = {},
): Promise<string[]> {
  const secrets = [
    target.apiKey,
    ...Object.values(target.headers).flatMap((v) => [v, ...v.split(/\s+/)]),
  ].filter((s): s is string => !!s)
  const url = `${target.baseUrl.replace(/\/+$/, '')}/models${target.kind === 'anthropic' ? '?limit=1000' : ''}`
  const headers: Record<string, string> = { ...target.headers, accept: 'application/json' }
  if (target.apiKey) {
    if (target.kind === 'anthropic') {
      headers['x-api-key'] = target.apiKey
      headers['anthropic-version'] = ANTHROPIC_VERSION
    } else headers.authorization = `Bearer ${target.apiKey}`
  } else if (target.kind === 'anthropic') headers['anthropic-version'] = ANTHROPIC_VERSION
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? MODEL_LIST_TIMEOUT_MS)
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout
  let body: unknown
  try {
    const response = await (opts.fetch ?? fetch)(url, { headers, signal })
    if (!response.ok) throw new Error(`HTTP ${response.status}${await errorText(response)}`)
    body = await response.json()
  } catch (error) {
    const reason = timeout.aborted
      ? `no answer within ${Math.round((opts.timeoutMs ?? MODEL_LIST_TIMEOUT_MS) / 1000)} s`
      : describe(error)
    throw new Error(redact(reason, secrets))
  }
  const data = (body as { data?: unknown } | null)?.data
  if (!Array.isArray(data)) throw new Error('the answer has no model list (no "data" array)')
  const ids = data
    .map((m) => (m as { id?: unknown } | null)?.id)
    // an id becomes part of `/model provider/id` and of a screen line: no spaces, no control characters
    .filter((id): id is string => typeof id === 'string' && id !== '' && !/[\s\p{Cc}]/u.test(id))
    .filter((id) => target.kind !== 'openai' || !NOT_CHAT.test(id))
  return [...new Set(ids)].sort().slice(0, MODEL_LIST_MAX)
}

async function errorText(response: Response): Promise<string> {
  try {
    const text = (await response.text()).replace(/\s+/g, ' ').trim()
    return text ? `: ${text.slice(0, 200)}` : ''
  } catch {
    return ''
  }
}

function describe(error: unknown): string {
  const e = error as { message?: unknown; cause?: { code?: unknown; message?: unknown } }
  const cause = e?.cause?.code ?? e?.cause?.message
  const message = typeof e?.message === 'string' ? e.message : String(error)
  return typeof cause === 'string' && !message.includes(cause) ? `${message} (${cause})` : message
}
