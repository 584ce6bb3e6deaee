// The catalog's text (85-skills-and-commands.md K3): sorted input in, one line per model-invocable item,
// never past the byte bound (its note included), nothing at all for 0 or for no invocable item.
import { describe, expect, it } from 'vitest'
import { CATALOG_PREAMBLE, catalogOf } from '../src/catalog.ts'
import { readSkill } from '../src/read-item.ts'
import type { KnowHowItem } from '../src/types.ts'

const item = (
  name: string,
  description: string,
  extra = '',
  scope: 'user' | 'project' = 'user',
): KnowHowItem => {
  const r = readSkill(`---\nname: ${name}\ndescription: ${description}\n${extra}---\nb\n`, name, {
    file: `/s/${name}/SKILL.md`,
    dir: `/s/${name}`,
    scope,
    source: scope === 'user' ? '~/.claude/skills' : '.claude/skills',
  })
  if (!r.item) throw new Error(JSON.stringify(r.warnings))
  return r.item
}
const bytes = (s: string) => Buffer.byteLength(s)

describe('catalogOf', () => {
  const items = [
    item('alpha', 'Ä first (UTF-8 counts bytes)'),
    item('beta', 'second'),
    item('gamma', 'third'),
  ]
  it('lists every invocable item when it fits, after the preamble', () => {
    const c = catalogOf(items, 16 * 1024)
    expect(c.text).toBe(
      `${CATALOG_PREAMBLE}\n- alpha: Ä first (UTF-8 counts bytes)\n- beta: second\n- gamma: third`,
    )
    expect([c.listed, c.leftOut]).toEqual([3, 0])
  })
  it('never passes the bound, note included, at every bound from the preamble up', () => {
    const whole = bytes(catalogOf(items, 16 * 1024).text)
    for (let max = 1; max <= whole + 5; max++) {
      const c = catalogOf(items, max)
      expect(bytes(c.text)).toBeLessThanOrEqual(max)
      expect(c.listed + c.leftOut).toBe(3)
      if (c.leftOut > 0 && c.listed > 0)
        expect(c.text).toContain(`(${c.leftOut} more not listed for want of room;`)
    }
    expect(catalogOf(items, whole).leftOut).toBe(0)
  })
  it('is empty for 0 bytes and when every item is for people only', () => {
    expect(catalogOf(items, 0).text).toBe('')
    expect(catalogOf([item('x', 'y', 'disable-model-invocation: true\n')], 4096).text).toBe('')
  })
  it("keeps the person's own items when a repository's long descriptions would fill the room; still by name", () => {
    const project = Array.from({ length: 16 }, (_, i) =>
      item(`aaa-${i + 10}`, 'x'.repeat(1024), '', 'project'),
    )
    const mine = item('zeta', 'my own skill')
    const c = catalogOf([...project, mine], 16 * 1024)
    expect(c.text).toContain('- zeta: my own skill')
    expect(c.leftOut).toBeGreaterThan(0)
    const names = [...c.text.matchAll(/^- ([^:]+):/gm)].map((m) => m[1])
    expect(names).toEqual([...names].sort())
    expect(bytes(c.text)).toBeLessThanOrEqual(16 * 1024)
  })
})
