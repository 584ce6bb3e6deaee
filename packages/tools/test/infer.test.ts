import { describe, expect, expectTypeOf, test } from 'vitest'
import { defineTool, type FromSchema, InvalidToolSchemaError, type ToolDefinition } from '../src/index.ts'

describe('TL-4 inferred argument types', () => {
  test('TL-4 a literal schema infers its argument type (required, defaulted and optional keys)', () => {
    const read = defineTool({
      name: 'read',
      description: 'Reads a file.',
      parameters: {
        type: 'object',
        properties: {
          file_path: { type: 'string' },
          offset: { type: 'integer', minimum: 1 },
          limit: { type: 'integer', default: 2000 },
        },
        required: ['file_path'],
      },
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ file_path: string; limit: number; offset?: number }>()
        return args.file_path
      },
    })
    expectTypeOf(read).toEqualTypeOf<ToolDefinition<{ file_path: string; limit: number; offset?: number }>>()
    // A typed definition registers as a plain ToolDefinition.
    expectTypeOf(read).toMatchTypeOf<ToolDefinition>()
  })

  test('TL-4 enum, const, anyOf, type arrays, arrays and nested objects', () => {
    const schema = {
      type: 'object',
      properties: {
        output: { enum: ['content', 'files', 'count'] },
        kind: { const: 'grep' },
        target: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        maybe: { type: ['string', 'null'] },
        todos: {
          type: 'array',
          items: {
            type: 'object',
            properties: { content: { type: 'string' }, done: { type: 'boolean' } },
            required: ['content', 'done'],
          },
        },
        anything: {},
      },
      required: ['output', 'kind', 'target', 'maybe', 'todos', 'anything'],
    } as const
    expectTypeOf<FromSchema<typeof schema>>().toEqualTypeOf<{
      output: 'content' | 'files' | 'count'
      kind: 'grep'
      target: string | number
      maybe: string | null
      todos: { content: string; done: boolean }[]
      anything: unknown
    }>()
  })

  test('TL-4 additionalProperties adds an index signature only when allowed', () => {
    type Closed = FromSchema<{ type: 'object'; properties: { a: { type: 'string' } } }>
    expectTypeOf<Closed>().toEqualTypeOf<{ a?: string }>()
    type Open = FromSchema<{ type: 'object'; additionalProperties: true }>
    expectTypeOf<Open>().toEqualTypeOf<{ [key: string]: unknown }>()
    type Map = FromSchema<{ type: 'object'; additionalProperties: { type: 'number' } }>
    expectTypeOf<Map>().toEqualTypeOf<{ [key: string]: number }>()
  })

  test('TL-4 a schema typed only as JsonSchema infers unknown', () => {
    expectTypeOf<FromSchema<{ readonly [key: string]: string }>>().toEqualTypeOf<unknown>()
  })

  test('TL-4 a misspelt type name is a compile error (and throws at definition)', () => {
    expect(() =>
      defineTool({
        name: 'bad',
        description: '',
        // @ts-expect-error 'strng' is not a JSON type name
        parameters: { type: 'object', properties: { a: { type: 'strng' } } },
        execute: () => '',
      }),
    ).toThrow(InvalidToolSchemaError)
  })
})
