// C3: the apply_patch text Codex hooks see for tack's write and edit, and reading a hook's patch back
// into tack's arguments (TL-32). Unit examples, then fast-check round trips.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  addFilePatch,
  applyHunks,
  codexToolName,
  parseSingleFilePatch,
  patchPath,
  replacementPatch,
  updateFilePatch,
} from '@tack/codex-protocol'
import { HostMappingReader } from '@tack/tools'
import { builtInTools, tempDir } from './helpers.ts'

// The built-in tools' own `host.codex` declarations, read as the bridge reads them. The examples below
// name the Codex tool; the tack tool behind `apply_patch` is `edit` for edit-shaped arguments, else `write`.
const codex = new HostMappingReader('codex', await builtInTools())
const tackToolOf = (codexName: string, args: unknown): string =>
  codexName === 'Bash'
    ? 'bash'
    : codexName === 'apply_patch'
      ? typeof (args as { old_string?: unknown }).old_string === 'string'
        ? 'edit'
        : 'write'
      : codexName
const codexNameOf = (tools: unknown, tackName: string) =>
  new HostMappingReader('codex', tools as never).name(tackName)
const codexToolInput = (codexName: string, args: unknown, cwd: string) =>
  codex.inputAsync(tackToolOf(codexName, args), args, cwd)
const toTackArguments = (codexName: string, updated: unknown, original: unknown, cwd: string) =>
  codex.argumentsAsync(tackToolOf(codexName, original), updated, cwd, original)

describe('patch synthesis', () => {
  it('C3 Add File lists every line with +; Update File has @@ hunks with three lines of context', () => {
    expect(addFilePatch('src/a.ts', 'x\ny\n')).toBe(
      '*** Begin Patch\n*** Add File: src/a.ts\n+x\n+y\n*** End Patch',
    )
    expect(addFilePatch('empty', '')).toBe('*** Begin Patch\n*** Add File: empty\n*** End Patch')
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n')
    const after = before.replace('line 2\n', 'LINE 2\n').replace('line 18\n', 'LINE 18\n')
    expect(updateFilePatch('f.txt', before, after)).toBe(
      [
        '*** Begin Patch',
        '*** Update File: f.txt',
        '@@',
        ' line 1',
        '-line 2',
        '+LINE 2',
        ' line 3',
        ' line 4',
        ' line 5',
        '@@',
        ' line 15',
        ' line 16',
        ' line 17',
        '-line 18',
        '+LINE 18',
        ' line 19',
        ' line 20',
        '*** End Patch',
      ].join('\n'),
    )
    expect(replacementPatch('f', 'a\nb', 'c')).toBe(
      '*** Begin Patch\n*** Update File: f\n@@\n-a\n-b\n+c\n*** End Patch',
    )
  })

  it('C3 paths are workspace-relative inside the workspace, absolute outside it', () => {
    expect(patchPath('/w', 'src/a.ts')).toBe('src/a.ts')
    expect(patchPath('/w', '/w/src/a.ts')).toBe('src/a.ts')
    expect(patchPath('/w', '../elsewhere/b')).toBe('/elsewhere/b')
  })

  it('C3 0011 tool names: bash declares Bash; edit and write declare apply_patch (aliases Edit, Write); others keep theirs', async () => {
    const tools = await builtInTools()
    const nameOf = (tackName: string) => codexToolName(codexNameOf(tools, tackName))
    expect(nameOf('bash')).toEqual({ name: 'Bash', aliases: [] })
    expect(nameOf('edit')).toEqual({ name: 'apply_patch', aliases: ['Edit', 'Write'] })
    expect(nameOf('write')).toEqual({ name: 'apply_patch', aliases: ['Edit', 'Write'] })
    expect(nameOf('read')).toEqual({ name: 'read', aliases: [] })
    expect(nameOf('mcp__github__search')).toEqual({ name: 'mcp__github__search', aliases: [] })
  })

  it('C3 tool_input: bash carries only the command; edit of an unreadable file falls back to its own strings', async () => {
    const w = await tempDir()
    expect(await codexToolInput('Bash', { command: 'ls', timeout_ms: 5, description: 'd' }, w)).toEqual({
      command: 'ls',
    })
    expect(
      await codexToolInput('apply_patch', { file_path: 'missing.txt', old_string: 'a', new_string: 'b' }, w),
    ).toEqual({
      command: '*** Begin Patch\n*** Update File: missing.txt\n@@\n-a\n+b\n*** End Patch',
    })
    await mkdir(join(w, 'd'))
    await writeFile(join(w, 'd', 'f.txt'), 'k\nk\n')
    expect(
      await codexToolInput(
        'apply_patch',
        { file_path: 'd/f.txt', old_string: 'k', new_string: 'K', replace_all: true },
        w,
      ),
    ).toEqual({ command: '*** Begin Patch\n*** Update File: d/f.txt\n@@\n-k\n-k\n+K\n+K\n*** End Patch' })
    expect(await codexToolInput('glob', { pattern: '*' }, w)).toEqual({ pattern: '*' })
  })
})

/** The call's own arguments say which shape an apply_patch rewrite takes: a write, or an edit. */
const WRITE = { file_path: 'f.txt', content: '' }
const EDIT = { file_path: 'f.txt', old_string: 'a', new_string: 'b' }

describe('patch parsing', () => {
  it.each([
    ['no envelope', 'no envelope'],
    ['a deletion', '*** Begin Patch\n*** Delete File: a\n*** End Patch'],
    [
      'two files',
      '*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** Update File: b\n@@\n-x\n+y\n*** End Patch',
    ],
    ['a move', '*** Begin Patch\n*** Update File: a\n*** Move to: b\n@@\n-x\n+y\n*** End Patch'],
    ['an added file line without +', '*** Begin Patch\n*** Add File: a\nno plus\n*** End Patch'],
    ['an update with no hunk', '*** Begin Patch\n*** Update File: a\n*** End Patch'],
    [
      'a hunk line that is not context, - or +',
      '*** Begin Patch\n*** Update File: a\n@@\n?odd\n*** End Patch',
    ],
  ])('TL-32 rejects what one tack call cannot express: %s', (_what, text) => {
    expect(parseSingleFilePatch(text).ok).toBe(false)
  })

  it('TL-32 bash rewrites keep the other arguments; a non-string command is refused', async () => {
    expect(
      await toTackArguments('Bash', { command: 'ls -la' }, { command: 'ls', timeout_ms: 9 }, '/w'),
    ).toEqual({
      ok: true,
      arguments: { command: 'ls -la', timeout_ms: 9 },
    })
    expect((await toTackArguments('Bash', { cmd: 'ls' }, { command: 'ls' }, '/w')).ok).toBe(false)
    expect(await toTackArguments('mcp__x__y', { q: 1 }, { q: 0 }, '/w')).toEqual({
      ok: true,
      arguments: { q: 1 },
    })
  })

  it('TL-32 write: Add File gives the content; Update File is applied to the file as it is', async () => {
    const w = await tempDir()
    await writeFile(join(w, 'f.txt'), 'a\nb\nc\n')
    expect(
      await toTackArguments('apply_patch', { command: addFilePatch('g.txt', 'new\n') }, WRITE, w),
    ).toEqual({
      ok: true,
      arguments: { file_path: join(w, 'g.txt'), content: 'new\n' },
    })
    expect(
      await toTackArguments(
        'apply_patch',
        { command: updateFilePatch('f.txt', 'a\nb\nc\n', 'a\nB\nc\n') },
        WRITE,
        w,
      ),
    ).toEqual({ ok: true, arguments: { file_path: join(w, 'f.txt'), content: 'a\nB\nc\n' } })
  })

  it('TL-32 edit: several hunks become a whole-file replacement of the current text', async () => {
    const w = await tempDir()
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n') + '\n'
    const after = before.replace('l1\n', 'L1\n').replace('l18\n', 'L18\n')
    await writeFile(join(w, 'f.txt'), before)
    expect(
      await toTackArguments('apply_patch', { command: updateFilePatch('f.txt', before, after) }, EDIT, w),
    ).toEqual({
      ok: true,
      arguments: { file_path: join(w, 'f.txt'), old_string: before, new_string: after },
    })
  })
})

const lines = fc.array(fc.stringMatching(/^[a-z ]{0,6}$/), { maxLength: 25 })

describe('patch properties', () => {
  it('R4 an update patch of before→after parses and applies to before, giving after', () => {
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const before = a.length ? `${a.join('\n')}\n` : ''
        const after = b.length ? `${b.join('\n')}\n` : ''
        const parsed = parseSingleFilePatch(updateFilePatch('f', before, after))
        if (before === after) {
          expect(parsed.ok).toBe(false) // no hunk: nothing to apply
          return
        }
        expect(parsed.ok).toBe(true)
        if (!parsed.ok || parsed.patch.kind !== 'update') return
        expect(applyHunks(before, parsed.patch.hunks)).toBe(after)
      }),
    )
  })

  it('R4 an add patch round-trips its content (final newline normalised)', () => {
    fc.assert(
      fc.property(lines, (a) => {
        const content = a.length ? `${a.join('\n')}\n` : ''
        const parsed = parseSingleFilePatch(addFilePatch('f', content))
        expect(parsed).toEqual({ ok: true, patch: { kind: 'add', path: 'f', content } })
      }),
    )
  })

  it('R4 the parser never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        const r = parseSingleFilePatch(`*** Begin Patch\n${s}\n*** End Patch`)
        expect(typeof r.ok).toBe('boolean')
      }),
    )
  })
})
