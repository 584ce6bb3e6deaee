// Named model endpoints from config: `endpoints: { <name>: { kind, baseUrl?, apiKeyEnv?, headers? } }`.
// A record keyed by user-chosen names does not fit the kernel's fixed-shape object schema, so this
// file implements the kernel's `Field` contract itself, with issues that name the exact key.
import type { ConfigIssue, Field, FieldInfo } from '@tack/kernel'

/** The wire protocols tack speaks through the AI SDK provider packages. */
export const PROVIDER_KINDS = ['openai-compatible', 'openai', 'anthropic', 'deepseek'] as const
export type ProviderKind = (typeof PROVIDER_KINDS)[number]

export interface EndpointConfig {
  readonly kind: ProviderKind
  /** Base URL including the API version segment, e.g. `http://127.0.0.1:8080/v1`. */
  readonly baseUrl?: string
  /** Name of the environment variable that holds the API key (never the key itself). */
  readonly apiKeyEnv?: string
  /** Extra HTTP headers sent with every request (values are never logged or shown). */
  readonly headers?: Readonly<Record<string, string>>
  /**
   * Whether the endpoint's models take image input: all (`true`), none (`false`), or the listed model
   * ids. Absent: the catalogue's answer, else the kind's default (images.ts).
   */
  readonly images?: boolean | readonly string[]
}

export type EndpointsConfig = Readonly<Record<string, EndpointConfig>>

/** `scripted` is reserved for the file-playing test provider (AL-21). */
export const RESERVED_PROVIDER_NAMES: readonly string[] = ['scripted']
const NAME = /^[a-z0-9][a-z0-9_.-]*$/i
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
const ENDPOINT_KEYS = ['kind', 'baseUrl', 'apiKeyEnv', 'headers', 'images']

type Result<T> = { ok: true; value: T } | { ok: false; issues: ConfigIssue[] }

const join = (path: string, key: string) => (path ? `${path}.${key}` : key)
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** True for an absolute http(s) URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

function checkEndpoint(value: unknown, path: string, issues: ConfigIssue[]): EndpointConfig | undefined {
  if (!isPlainObject(value)) {
    issues.push({ path, message: 'must be an object with a kind' })
    return undefined
  }
  const before = issues.length
  for (const key of Object.keys(value)) {
    if (!ENDPOINT_KEYS.includes(key))
      issues.push({ path: join(path, key), message: `unknown key (known keys: ${ENDPOINT_KEYS.join(', ')})` })
  }
  const { kind, baseUrl, apiKeyEnv, headers, images } = value
  if (
    images !== undefined &&
    typeof images !== 'boolean' &&
    !(Array.isArray(images) && images.every((id) => typeof id === 'string' && id !== ''))
  )
    issues.push({ path: join(path, 'images'), message: 'must be true, false or a list of model ids' })
  if (typeof kind !== 'string' || !(PROVIDER_KINDS as readonly string[]).includes(kind))
    issues.push({
      path: join(path, 'kind'),
      message: `must be one of ${PROVIDER_KINDS.map((k) => `'${k}'`).join(', ')}`,
    })
  if (baseUrl !== undefined && (typeof baseUrl !== 'string' || !isHttpUrl(baseUrl)))
    issues.push({ path: join(path, 'baseUrl'), message: 'must be an http(s) URL' })
  if (apiKeyEnv !== undefined && (typeof apiKeyEnv !== 'string' || !ENV_NAME.test(apiKeyEnv)))
    issues.push({
      path: join(path, 'apiKeyEnv'),
      message: 'must be an environment variable name (letters, digits, _), not a key',
    })
  if (headers !== undefined) {
    if (!isPlainObject(headers)) issues.push({ path: join(path, 'headers'), message: 'must be an object' })
    else
      for (const [name, v] of Object.entries(headers)) {
        // The value is never echoed: it may be a credential.
        if (!HEADER_NAME.test(name) || typeof v !== 'string')
          issues.push({
            path: join(join(path, 'headers'), name),
            message: 'must be a header name with a string value',
          })
      }
  }
  if (issues.length > before) return undefined
  return {
    kind: kind as ProviderKind,
    ...(baseUrl !== undefined ? { baseUrl: baseUrl as string } : {}),
    ...(apiKeyEnv !== undefined ? { apiKeyEnv: apiKeyEnv as string } : {}),
    ...(headers !== undefined ? { headers: { ...(headers as Record<string, string>) } } : {}),
    ...(images !== undefined
      ? { images: Array.isArray(images) ? [...(images as string[])] : (images as boolean) }
      : {}),
  }
}

/** The `endpoints` config field. */
export function endpointsField(description: string): Field<EndpointsConfig> {
  const allowed = `an object of named endpoints {kind: ${PROVIDER_KINDS.join(' | ')}, baseUrl?, apiKeyEnv?, headers?, images?}`
  return {
    kind: 'endpoints',
    allowed,
    description,
    hasDefault: true,
    defaultValue: {},
    check(value, path): Result<EndpointsConfig> {
      if (value === undefined || value === null) return { ok: true, value: {} }
      if (!isPlainObject(value)) return { ok: false, issues: [{ path, message: `must be ${allowed}` }] }
      const issues: ConfigIssue[] = []
      const out: Record<string, EndpointConfig> = {}
      for (const [name, endpoint] of Object.entries(value)) {
        const at = join(path, name)
        if (!NAME.test(name)) {
          issues.push({ path: at, message: 'endpoint names are letters, digits, ".", "_" and "-"' })
          continue
        }
        if (RESERVED_PROVIDER_NAMES.includes(name)) {
          issues.push({ path: at, message: `"${name}" is reserved for the scripted test provider` })
          continue
        }
        const checked = checkEndpoint(endpoint, at, issues)
        if (checked) out[name] = checked
      }
      return issues.length ? { ok: false, issues } : { ok: true, value: out }
    },
    describe(path): FieldInfo[] {
      return [
        { path, allowed, default: {}, description },
        {
          path: `${path}.<name>.kind`,
          allowed: PROVIDER_KINDS.map((k) => `'${k}'`).join(', '),
          default: undefined,
          description: 'Wire protocol of the endpoint.',
        },
        {
          path: `${path}.<name>.baseUrl`,
          allowed: 'an http(s) URL (optional)',
          default: undefined,
          description: "Base URL including the version segment; defaults to the kind's public API.",
        },
        {
          path: `${path}.<name>.apiKeyEnv`,
          allowed: 'an environment variable name (optional)',
          default: undefined,
          description: "Variable holding the key; defaults to the kind's (none for openai-compatible).",
        },
        {
          path: `${path}.<name>.headers`,
          allowed: 'an object of header names to strings (optional)',
          default: undefined,
          description: 'Extra HTTP headers; their values are never logged or shown.',
        },
        {
          path: `${path}.<name>.images`,
          allowed: 'true, false or a list of model ids (optional)',
          default: undefined,
          description:
            "Which of the endpoint's models take image input (all, none, or those listed). Unset: the model catalogue's answer, else yes for anthropic and no for the other kinds. A model without image input gets a note in place of each image.",
        },
      ]
    },
  }
}
