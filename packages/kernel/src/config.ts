// Validated configuration. Every tunable is a field built here: it carries its default, its allowed
// range and a description, validates at load with a message that names the key and the range, and
// can be listed for the generated configuration reference. Object schemas implement Standard Schema,
// so cordis validates a plugin's `Config` with them when the plugin is loaded.
import { isAbsolute } from 'node:path'
import type { StandardSchemaV1 } from '@standard-schema/spec'

export interface FieldInfo {
  /** Dotted path inside the plugin's config. */
  readonly path: string
  /** Human-readable type with its allowed range, e.g. `integer 1–10000`. */
  readonly allowed: string
  readonly default: unknown
  readonly description: string
}

/** A problem found while validating; `path` is the dotted key. */
export interface ConfigIssue {
  readonly path: string
  readonly message: string
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError'
  readonly issues: readonly ConfigIssue[]
  readonly file?: string
  constructor(issues: readonly ConfigIssue[], file?: string) {
    super(ConfigError.format(issues, file))
    this.issues = issues
    this.file = file
  }
  static format(issues: readonly ConfigIssue[], file?: string): string {
    const where = file ? `${file}: ` : ''
    return issues.map((i) => `${where}${i.path || '(root)'}: ${i.message}`).join('\n')
  }
}

type Result<T> = { ok: true; value: T } | { ok: false; issues: ConfigIssue[] }

export interface Field<T> {
  readonly kind: string
  readonly allowed: string
  readonly description: string
  readonly hasDefault: boolean
  readonly defaultValue: T | undefined
  /** Validates `value` (undefined means absent) at `path`. */
  check(value: unknown, path: string): Result<T>
  /** Lists this field (and nested fields) for documentation. */
  describe(path: string): FieldInfo[]
}

interface Common<T> {
  default?: T
  description: string
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key)
const show = (value: unknown) => {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

function leaf<T>(
  kind: string,
  allowed: string,
  opts: Common<T>,
  test: (v: unknown) => v is T,
): Field<T> & { optional(): Field<T | undefined> } {
  const field: Field<T> = {
    kind,
    allowed,
    description: opts.description,
    hasDefault: opts.default !== undefined,
    defaultValue: opts.default,
    check(value, path) {
      if (value === undefined) {
        if (opts.default !== undefined) return { ok: true, value: opts.default }
        return { ok: false, issues: [{ path, message: `is required (allowed: ${allowed})` }] }
      }
      if (test(value)) return { ok: true, value }
      return { ok: false, issues: [{ path, message: `must be ${allowed} (got ${show(value)})` }] }
    },
    describe(path) {
      return [{ path, allowed, default: opts.default, description: opts.description }]
    },
  }
  return Object.assign(field, { optional: () => optional(field) })
}

/** Makes a field that has no default optional: absent stays `undefined`. */
export function optional<T>(field: Field<T>): Field<T | undefined> {
  return {
    ...field,
    hasDefault: true,
    defaultValue: undefined,
    check(value, path) {
      return value === undefined ? { ok: true, value: undefined } : field.check(value, path)
    },
    describe: (path) => field.describe(path).map((f) => ({ ...f, allowed: `${f.allowed} (optional)` })),
  }
}

const range = (min?: number, max?: number) =>
  min !== undefined && max !== undefined
    ? ` ${min}–${max}`
    : min !== undefined
      ? ` ≥ ${min}`
      : max !== undefined
        ? ` ≤ ${max}`
        : ''

export const Schema = {
  integer(opts: Common<number> & { min?: number; max?: number }) {
    return leaf(
      'integer',
      `an integer${range(opts.min, opts.max)}`,
      opts,
      (v): v is number =>
        typeof v === 'number' &&
        Number.isInteger(v) &&
        (opts.min === undefined || v >= opts.min) &&
        (opts.max === undefined || v <= opts.max),
    )
  },
  number(opts: Common<number> & { min?: number; max?: number; exclusiveMin?: boolean }) {
    const lower = opts.exclusiveMin && opts.min !== undefined ? ` > ${opts.min}` : undefined
    return leaf(
      'number',
      lower
        ? `a number${lower}${opts.max !== undefined ? ` and ≤ ${opts.max}` : ''}`
        : `a number${range(opts.min, opts.max)}`,
      opts,
      (v): v is number =>
        typeof v === 'number' &&
        Number.isFinite(v) &&
        (opts.min === undefined || (opts.exclusiveMin ? v > opts.min : v >= opts.min)) &&
        (opts.max === undefined || v <= opts.max),
    )
  },
  string(opts: Common<string> & { nonEmpty?: boolean }) {
    return leaf(
      'string',
      opts.nonEmpty ? 'a non-empty string' : 'a string',
      opts,
      (v): v is string => typeof v === 'string' && (!opts.nonEmpty || v.length > 0),
    )
  },
  boolean(opts: Common<boolean>) {
    return leaf('boolean', 'true or false', opts, (v): v is boolean => typeof v === 'boolean')
  },
  enum<const V extends string>(values: readonly V[], opts: Common<V>) {
    return leaf(
      'enum',
      `one of ${values.map((v) => `'${v}'`).join(', ')}`,
      opts,
      (v): v is V => typeof v === 'string' && (values as readonly string[]).includes(v),
    )
  },
  stringList(opts: Common<string[]>) {
    return leaf(
      'string[]',
      'a list of strings',
      opts,
      (v): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string'),
    )
  },
  /** A folder or file given as an absolute path (a relative one would depend on the cwd at load). */
  absolutePath(opts: Common<string>) {
    return leaf('path', 'an absolute path', opts, (v): v is string => typeof v === 'string' && isAbsolute(v))
  },
  /** Any JSON value the owning plugin validates itself (e.g. a list of rule objects). */
  json<T>(opts: Common<T> & { allowed: string; test: (v: unknown) => v is T }) {
    return leaf('json', opts.allowed, opts, opts.test)
  },
  /**
   * An object of fields. `refine` checks rules that span fields (e.g. one limit below another) once every
   * field is valid; its issues name keys relative to this object.
   */
  object<S extends Record<string, Field<unknown>>>(
    shape: S,
    opts: { description?: string; refine?: (value: ShapeValue<S>) => readonly ConfigIssue[] } = {},
  ) {
    return new ObjectSchema(shape, opts.description ?? '', opts.refine)
  },
}

export type Infer<S> = S extends Field<infer T> ? T : never
type ShapeValue<S extends Record<string, Field<unknown>>> = { [K in keyof S]: Infer<S[K]> }

/** An object of fields. Unknown keys are errors, never silently ignored. */
export class ObjectSchema<S extends Record<string, Field<unknown>>>
  implements Field<ShapeValue<S>>, StandardSchemaV1<unknown, ShapeValue<S>>
{
  readonly kind = 'object'
  readonly allowed = 'an object'
  readonly hasDefault = true
  readonly shape: S
  readonly description: string
  // Typed on a plain record so every ObjectSchema stays assignable to ObjectSchema<Record<…>>.
  readonly #refine?: (value: Record<string, unknown>) => readonly ConfigIssue[]
  constructor(shape: S, description: string, refine?: (value: ShapeValue<S>) => readonly ConfigIssue[]) {
    this.shape = shape
    this.description = description
    this.#refine = refine as ((value: Record<string, unknown>) => readonly ConfigIssue[]) | undefined
  }
  get defaultValue(): ShapeValue<S> {
    const result = this.check(undefined, '')
    if (!result.ok) throw new ConfigError(result.issues)
    return result.value
  }
  check(value: unknown, path: string): Result<ShapeValue<S>> {
    if (value === undefined || value === null) value = {}
    if (typeof value !== 'object' || Array.isArray(value)) {
      return { ok: false, issues: [{ path, message: `must be an object (got ${show(value)})` }] }
    }
    const input = value as Record<string, unknown>
    const issues: ConfigIssue[] = []
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(input)) {
      if (!Object.hasOwn(this.shape, key)) {
        const known = Object.keys(this.shape).join(', ')
        issues.push({ path: join(path, key), message: `unknown key (known keys: ${known || 'none'})` })
      }
    }
    for (const [key, field] of Object.entries(this.shape)) {
      const r = field.check(input[key], join(path, key))
      if (r.ok) {
        if (r.value !== undefined) out[key] = r.value
      } else issues.push(...r.issues)
    }
    if (issues.length) return { ok: false, issues }
    const refined = this.#refine?.(out) ?? []
    if (refined.length) return { ok: false, issues: refined.map((i) => ({ ...i, path: join(path, i.path) })) }
    return { ok: true, value: out as ShapeValue<S> }
  }
  describe(path = ''): FieldInfo[] {
    return Object.entries(this.shape).flatMap(([key, field]) => field.describe(join(path, key)))
  }
  /** Validates and throws `ConfigError` (naming `file` when given) on any issue. */
  parse(value: unknown, file?: string): ShapeValue<S> {
    const r = this.check(value, '')
    if (!r.ok) throw new ConfigError(r.issues, file)
    return r.value
  }
  optional(): Field<ShapeValue<S> | undefined> {
    return optional(this)
  }
  get '~standard'(): StandardSchemaV1.Props<unknown, ShapeValue<S>> {
    return {
      version: 1,
      vendor: 'tack',
      validate: (value) => {
        const r = this.check(value, '')
        if (r.ok) return { value: r.value }
        return {
          issues: r.issues.map((i) => ({
            message: `${i.path || '(root)'}: ${i.message}`,
            path: i.path.split('.'),
          })),
        }
      },
    }
  }
}
