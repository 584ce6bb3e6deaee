// The `@` completion's fuzzy ranking (85-skills-and-commands.md I1, docs/decisions/0280-file-mentions.md).
import { describe, expect, it } from 'vitest'
import { fileItems } from '../../src/mentions/completion.ts'
import { fuzzyScore, rankPaths } from '../../src/mentions/fuzzy.ts'

const PATHS = [
  'src/',
  'src/agent/',
  'README.md',
  'src/agent/admission.ts',
  'src/agent/agent.ts',
  'src/index.ts',
  'docs/architecture.md',
  'test/agent.test.ts',
  'my notes/',
  'my notes/a b.txt',
]

describe('fuzzy ranking', () => {
  it('matches the typed characters in order, any case, and nothing else', () => {
    expect(fuzzyScore('src/agent/agent.ts', 'SAA')).toBeDefined()
    expect(fuzzyScore('src/agent/agent.ts', 'zz')).toBeUndefined()
    expect(fuzzyScore('abc', 'cab')).toBeUndefined()
  })

  it("puts a match in the file's own name, run together, before a scattered one", () => {
    expect(rankPaths(PATHS, 'agent.ts', 2)).toEqual(['src/agent/agent.ts', 'test/agent.test.ts'])
    expect(rankPaths(PATHS, 'arch', 1)).toEqual(['docs/architecture.md'])
    expect(rankPaths(PATHS, 'rdme', 1)).toEqual(['README.md'])
  })

  it('offers the top of the tree for an empty query, shallowest first, and stops at the cap', () => {
    expect(rankPaths(PATHS, '', 3)).toEqual(['README.md', 'my notes/', 'src/'])
  })

  it('offers folders as partial items and quotes paths with spaces', () => {
    expect(fileItems(PATHS, 'agent/')).toContainEqual({ value: 'src/agent/', partial: true })
    expect(fileItems(PATHS, '"my no')).toEqual([
      { value: '"my notes/', partial: true },
      { value: '"my notes/a b.txt"' },
    ])
  })
})
