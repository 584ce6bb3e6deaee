import { describe, expect, test } from 'vitest'
import { compileToolParameters, defineTool, InvalidToolSchemaError, registerTool } from '../src/index.ts'
import { call, createToolsContext, thrownBy } from './support.ts'

const noop = () => ''

const schemaError = (parameters: unknown) =>
  thrownBy(InvalidToolSchemaError, () => compileToolParameters(parameters))

describe('TL-4 schema subset at definition', () => {
  test('TL-4 a keyword outside the subset throws naming the path and keyword', () => {
    const error = schemaError({
      type: 'object',
      properties: { limit: { type: 'integer', exclusiveMinimum: 0 } },
    })
    expect(error.path).toBe('/properties/limit')
    expect(error.keyword).toBe('exclusiveMinimum')
    expect(error.message).toContain('/properties/limit')
    expect(error.message).toContain('exclusiveMinimum')
  })

  test('TL-4 defineTool throws at definition for $ref, allOf, tuples and patternProperties', () => {
    const cases: Array<[unknown, string, string]> = [
      [{ type: 'object', properties: { a: { $ref: '#/x' } } }, '/properties/a', '$ref'],
      [{ type: 'object', allOf: [] }, '/', 'allOf'],
      [
        { type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }] } } },
        '/properties/t',
        'items',
      ],
      [{ type: 'object', patternProperties: {} }, '/', 'patternProperties'],
    ]
    for (const [parameters, path, keyword] of cases) {
      expect(() =>
        defineTool({
          name: 'x',
          description: '',
          parameters: parameters as { type: 'object' },
          execute: noop,
        }),
      ).toThrow(InvalidToolSchemaError)
      const error = schemaError(parameters)
      expect([error.path, error.keyword]).toEqual([path, keyword])
    }
  })

  test('TL-4 parameters must be an object schema', () => {
    expect(schemaError({ type: 'string' })).toMatchObject({ path: '/', keyword: 'type' })
    expect(schemaError({ properties: {} })).toMatchObject({ path: '/', keyword: 'type' })
  })

  test('TL-4 malformed keyword values are refused', () => {
    expect(schemaError({ type: 'object', properties: { a: { type: 'text' } } })).toMatchObject({
      path: '/properties/a',
      keyword: 'type',
    })
    expect(
      schemaError({ type: 'object', properties: { a: { type: 'string', pattern: '(' } } }),
    ).toMatchObject({
      keyword: 'pattern',
    })
    expect(
      schemaError({ type: 'object', properties: { a: { type: 'string', minLength: -1 } } }),
    ).toMatchObject({
      keyword: 'minLength',
    })
    expect(schemaError({ type: 'object', properties: { a: { enum: [] } } })).toMatchObject({
      keyword: 'enum',
    })
    expect(schemaError({ type: 'object', required: ['ghost'] })).toMatchObject({
      path: '/',
      keyword: 'required',
    })
  })

  test('TL-4 a default that does not validate is refused at definition', () => {
    const error = schemaError({
      type: 'object',
      properties: { limit: { type: 'integer', minimum: 1, default: 0 } },
    })
    expect(error).toMatchObject({ path: '/properties/limit', keyword: 'default' })
    expect(error.message).toContain('expected integer >= 1')
  })

  test('TL-4 the wire schema states additionalProperties: false where it was omitted', () => {
    const validator = compileToolParameters({
      type: 'object',
      properties: {
        nested: { type: 'object', properties: { a: { type: 'string' } } },
        free: { type: 'object', additionalProperties: true },
      },
    })
    expect(validator.wire).toEqual({
      type: 'object',
      properties: {
        nested: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
        free: { type: 'object', additionalProperties: true },
      },
      additionalProperties: false,
    })
    expect(Object.isFrozen(validator.wire)).toBe(true)
  })
})

describe('TL-4 argument validation', () => {
  const v = compileToolParameters({
    type: 'object',
    properties: {
      file_path: { type: 'string', minLength: 1 },
      limit: { type: 'integer', minimum: 1, maximum: 5000, default: 2000 },
      mode: { enum: ['a', 'b'] },
      tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' }, maxItems: 2 },
      target: { anyOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }] },
      opts: { type: 'object', properties: { deep: { type: 'boolean', default: true } } },
      nullable: { type: ['string', 'null'] },
    },
    required: ['file_path'],
  })

  test('TL-4 malformed JSON gives a problem at /', () => {
    const r = v.parse('{"file_path": ')
    expect(r.ok).toBe(false)
    expect(!r.ok && r.problems[0]).toMatch(/^\/: invalid JSON/)
  })

  test('TL-4 a missing required field, an extra property and a bound each give path: expectation', () => {
    const r = v.parse(JSON.stringify({ limit: 0, x: 1 }))
    expect(r.ok).toBe(false)
    expect(!r.ok && r.problems).toEqual([
      '/file_path: required',
      '/limit: expected integer >= 1',
      '/: unexpected property "x"',
    ])
  })

  test('TL-4 nested paths, enum, pattern, maxItems, anyOf and type arrays', () => {
    const r = v.parse(
      JSON.stringify({
        file_path: 'f',
        mode: 'c',
        tags: ['ok', 'NO', 'x'],
        target: -1,
        opts: { deep: 'yes' },
        nullable: 3,
      }),
    )
    expect(!r.ok && r.problems).toEqual([
      '/mode: expected one of "a", "b"',
      '/tags: expected array of at most 2 items',
      '/tags/1: expected string matching /^[a-z]+$/',
      '/target: expected a value matching one of 2 alternatives (1: /target: expected string | 2: /target: expected integer >= 0)',
      '/opts/deep: expected boolean',
      '/nullable: expected string or null',
    ])
  })

  test('TL-4 defaults are filled, nested ones too, on a copy', () => {
    const input = { file_path: 'a.txt', opts: {} }
    const r = v.validate(input)
    expect(r).toEqual({ ok: true, value: { file_path: 'a.txt', limit: 2000, opts: { deep: true } } })
    expect(input).toEqual({ file_path: 'a.txt', opts: {} })
  })

  test('TL-4 empty argument text means {}', () => {
    const empty = compileToolParameters({ type: 'object', properties: {} })
    expect(empty.parse('')).toEqual({ ok: true, value: {} })
    expect(empty.parse('  ')).toEqual({ ok: true, value: {} })
    expect(empty.parse('[]')).toEqual({ ok: false, problems: ['/: expected object'] })
  })

  test('TL-4 bad JSON, a missing field and an extra property each yield INVALID_ARGS and no body runs', async () => {
    const ctx = await createToolsContext()
    let ran = 0
    registerTool(
      ctx,
      defineTool({
        name: 'read',
        description: 'reads',
        parameters: {
          type: 'object',
          properties: { file_path: { type: 'string' } },
          required: ['file_path'],
        },
        execute: () => {
          ran++
          return 'read'
        },
      }),
    )
    const fired: string[] = []
    for (const seam of ['tools/call', 'tools/pre-execute', 'tools/execute', 'tools/post-execute'] as const) {
      // biome-ignore lint/suspicious/noExplicitAny: one recorder for seams of different signatures
      ctx.on(seam, ((...args: any[]) => {
        fired.push(seam)
        return args[args.length - 1]()
      }) as never)
    }
    const results = [
      await ctx.tools.execute(call('read', '{"file_path": ')),
      await ctx.tools.execute(call('read', {})),
      await ctx.tools.execute(call('read', { file_path: 'a', extra: true })),
    ]
    expect(results.map((r) => r.error?.code)).toEqual(['INVALID_ARGS', 'INVALID_ARGS', 'INVALID_ARGS'])
    expect(results[0].content[0].text).toMatch(/^Invalid arguments for tool "read":\n\/: invalid JSON/)
    expect(results[1].content[0].text).toBe('Invalid arguments for tool "read":\n/file_path: required')
    expect(results[2].content[0].text).toBe(
      'Invalid arguments for tool "read":\n/: unexpected property "extra"',
    )
    expect(ran).toBe(0)
    expect(fired).toEqual(['tools/call', 'tools/call', 'tools/call'])
  })
})
