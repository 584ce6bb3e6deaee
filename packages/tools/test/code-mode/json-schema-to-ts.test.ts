// TL-22: jsonSchemaToTs goldens per construct, a permutation property, and a property that it never
// throws on generated schemas and that its output type-checks with the TypeScript compiler.
import fc from 'fast-check'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'
import { jsonSchemaToTs } from '../../src/index.ts'

describe('TL-22 jsonSchemaToTs goldens', () => {
  test('TL-22 scalars map to their types', () => {
    expect(jsonSchemaToTs({ type: 'string' })).toBe('string')
    expect(jsonSchemaToTs({ type: 'number' })).toBe('number')
    expect(jsonSchemaToTs({ type: 'integer', minimum: 1 })).toBe('number')
    expect(jsonSchemaToTs({ type: 'boolean' })).toBe('boolean')
    expect(jsonSchemaToTs({ type: 'null' })).toBe('null')
  })

  test('TL-22 enum and const become unions of JSON literals in schema order', () => {
    expect(jsonSchemaToTs({ type: 'string', enum: ['files', 'content', 'count'] })).toBe(
      '"files" | "content" | "count"',
    )
    expect(jsonSchemaToTs({ enum: [3, null, true, 'a"b'] })).toBe('3 | null | true | "a\\"b"')
    expect(jsonSchemaToTs({ const: 'x' })).toBe('"x"')
    expect(jsonSchemaToTs({ enum: [] })).toBe('never')
  })

  test('TL-22 arrays are T[] with parenthesised unions', () => {
    expect(jsonSchemaToTs({ type: 'array', items: { type: 'string' } })).toBe('string[]')
    expect(jsonSchemaToTs({ type: 'array', items: { type: ['string', 'null'] } })).toBe('(string | null)[]')
    expect(jsonSchemaToTs({ type: 'array' })).toBe('unknown[]')
  })

  test('TL-22 objects: code-unit key order, optional marks, quoted keys, doc comments, index signatures', () => {
    const schema = {
      type: 'object',
      properties: {
        b: { type: 'integer', description: 'the b' },
        'a-b': { type: 'string' },
        A: { type: 'boolean' },
      },
      required: ['b'],
      additionalProperties: false,
    }
    expect(jsonSchemaToTs(schema)).toBe(
      ['{', '  A?: boolean', '  "a-b"?: string', '  /** the b */', '  b: number', '}'].join('\n'),
    )
    expect(jsonSchemaToTs({ type: 'object', additionalProperties: { type: 'number' } })).toBe(
      '{\n  [key: string]: number\n}',
    )
    expect(
      jsonSchemaToTs({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true }),
    ).toBe('{\n  a?: string\n  [key: string]: unknown\n}')
    expect(jsonSchemaToTs({ type: 'object', properties: {} })).toBe('{}')
  })

  test('TL-22 nested objects indent by two spaces per level', () => {
    const schema = {
      type: 'object',
      properties: {
        outer: { type: 'object', properties: { inner: { type: 'string', description: 'x */ y' } } },
      },
      required: ['outer'],
    }
    expect(jsonSchemaToTs(schema)).toBe(
      ['{', '  outer: {', '    /** x *\\/ y */', '    inner?: string', '  }', '}'].join('\n'),
    )
  })

  test('TL-22 anyOf and type arrays become unions', () => {
    expect(
      jsonSchemaToTs({ anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'number' } }] }),
    ).toBe('string | number[]')
    expect(jsonSchemaToTs({ type: ['integer', 'number', 'null'] })).toBe('number | null')
  })

  test('TL-22 what it cannot express becomes unknown', () => {
    for (const schema of [
      { $ref: '#/x' },
      { allOf: [{ type: 'string' }] },
      { not: { type: 'string' } },
      { type: 'array', items: [{ type: 'string' }] },
      { type: 'object', patternProperties: { '^x': { type: 'string' } } },
      { type: 'date' },
      {},
      null,
      'string',
      [],
    ])
      expect(jsonSchemaToTs(schema)).toBe('unknown')
  })
})

// ---- property tests ----

const leaf = fc.oneof(
  fc.constantFrom('string', 'number', 'integer', 'boolean', 'null').map((type) => ({ type })),
  fc.record({ type: fc.constant('string'), enum: fc.array(fc.string(), { minLength: 1, maxLength: 3 }) }),
  fc.record({ const: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ $ref: fc.string() }),
)

const schemaArb: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ type: fc.constant('array'), items: tie('schema') }),
    fc.record(
      {
        type: fc.constant('object'),
        properties: fc.dictionary(fc.string({ maxLength: 8 }), tie('schema'), { maxKeys: 4 }),
        required: fc.array(fc.string({ maxLength: 8 }), { maxLength: 2 }),
        additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
        description: fc.string(),
      },
      { requiredKeys: ['type', 'properties'] },
    ),
    fc.record({ anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ type: fc.subarray(['string', 'number', 'null', 'boolean'], { minLength: 1 }) }),
  ),
})).schema

/** Type-checks `source` as a standalone module; returns the diagnostics' messages. */
function typeCheck(source: string): string[] {
  const file = 'check.ts'
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    types: [],
    skipLibCheck: true,
  }
  const host = ts.createCompilerHost(options)
  const read = host.getSourceFile.bind(host)
  host.getSourceFile = (name, version) =>
    name === file ? ts.createSourceFile(file, source, version) : read(name, version)
  const program = ts.createProgram([file], options, host)
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${ts.flattenDiagnosticMessageText(d.messageText, '\n')} @ ${d.start}`)
}

describe('TL-22 properties', () => {
  test('TL-22 never throws on generated schemas, and every output type-checks with the TypeScript compiler', () => {
    const samples = fc.sample(schemaArb, { numRuns: 300, seed: 22 })
    const lines: string[] = []
    samples.forEach((schema, i) => {
      const type = jsonSchemaToTs(schema)
      expect(type).not.toMatch(/[ \t]$/m) // no trailing space
      lines.push(`export type T${i} = ${type}`)
    })
    const source = `${lines.join('\n')}\n`
    const problems = typeCheck(source)
    expect(problems, source).toEqual([])
  })

  test('TL-22 never throws on arbitrary values, including hostile objects', () => {
    fc.assert(fc.property(fc.anything(), (value) => typeof jsonSchemaToTs(value) === 'string'))
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('no')
        },
      },
    )
    expect(jsonSchemaToTs(hostile)).toBe('unknown')
  })

  test('TL-22 output is byte-identical whatever the key order of the schema', () => {
    fc.assert(
      fc.property(schemaArb, fc.integer(), (schema, seed) => {
        expect(jsonSchemaToTs(shuffleKeys(schema, seed))).toBe(jsonSchemaToTs(schema))
      }),
      { numRuns: 200 },
    )
  })
})

/** A deep copy of `value` with every object's keys in a seed-determined order. */
function shuffleKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffleKeys(v, seed))
  if (typeof value !== 'object' || value === null) return value
  const keys = Object.keys(value)
  let s = seed >>> 0
  for (let i = keys.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) >>> 0
    const j = s % (i + 1)
    ;[keys[i], keys[j]] = [keys[j], keys[i]]
  }
  const out: Record<string, unknown> = {}
  for (const key of keys) out[key] = shuffleKeys((value as Record<string, unknown>)[key], seed)
  return out
}
