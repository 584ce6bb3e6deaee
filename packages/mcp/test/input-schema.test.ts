// MCP input schemas on tack's JSON Schema subset (docs/decisions/0220-mcp-tools.md): projected so no
// tool is refused, wider never narrower, and the server's schema shown when nothing else works.
import { compileToolParameters } from '@tack/tools'
import { describe, expect, it } from 'vitest'
import { projectInputSchema } from '../src/input-schema.ts'

const accepts = (schema: unknown, value: unknown) =>
  compileToolParameters(projectInputSchema(schema).parameters).validate(value).ok

describe('projectInputSchema', () => {
  it('keeps the subset: types, required, enums, descriptions', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'number', description: 'first' }, mode: { enum: ['x', 'y'] } },
      required: ['a'],
    }
    const { parameters, note } = projectInputSchema(schema)
    expect(note).toBeUndefined()
    expect(parameters).toMatchObject({
      properties: { a: { type: 'number', description: 'first' } },
      required: ['a'],
    })
    expect(accepts(schema, { a: 1 })).toBe(true)
    expect(accepts(schema, { a: 'one' })).toBe(false)
    expect(accepts(schema, {})).toBe(false)
  })

  it('an object without additionalProperties allows extra keys, as JSON Schema means', () => {
    expect(accepts({ type: 'object', properties: { a: { type: 'string' } } }, { a: 'x', b: 2 })).toBe(true)
    expect(accepts({ type: 'object', properties: {}, additionalProperties: false }, { b: 2 })).toBe(false)
  })

  it('drops keywords outside the subset ($schema, format, exclusiveMinimum, allOf), widening only', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        when: { type: 'string', format: 'date-time' },
        n: { type: 'number', exclusiveMinimum: 0 },
        both: { allOf: [{ type: 'string' }, { minLength: 2 }] },
      },
    }
    expect(projectInputSchema(schema).note).toBeUndefined()
    expect(accepts(schema, { when: 'not a date', n: 0, both: 5 })).toBe(true)
    expect(accepts(schema, { when: 5 })).toBe(false)
  })

  it('oneOf as anyOf; $ref accepts anything', () => {
    const schema = {
      type: 'object',
      properties: { v: { oneOf: [{ type: 'string' }, { type: 'number' }] }, r: { $ref: '#/$defs/x' } },
      $defs: { x: { type: 'string' } },
    }
    expect(accepts(schema, { v: 1, r: { any: 'thing' } })).toBe(true)
    expect(accepts(schema, { v: true })).toBe(false)
  })

  it('a schema the subset cannot compile: any object, and the description carries the server schema', () => {
    const schema = { type: 'object', properties: { p: { type: 'string', pattern: '(?<!x' } } }
    const { parameters, note } = projectInputSchema(schema)
    expect(parameters).toEqual({ type: 'object', additionalProperties: true })
    expect(note).toContain(JSON.stringify(schema))
  })
})
