// Tool cards and the diff under them (80-cli.md §5.1): the status words, durations, key argument,
// the applied hunk with numbered lines and signs, colour only when wanted, and narrow terminals.
import { describe, expect, test } from 'vitest'
import { renderDiff } from '../src/components/diff-view.ts'
import { renderToolCard, statusWord } from '../src/components/tool-card.ts'
import type { ToolEntry } from '../src/view-model.ts'
import { keyArgument } from '../src/key-argument.ts'
import { ascii, colour, hasStyle, plain, strip, widest } from './support.ts'

const card = (over: Partial<ToolEntry> = {}): ToolEntry => ({
  kind: 'tool',
  callId: 'c1',
  name: 'bash',
  keyArg: 'npm test -- --run packages/tui',
  status: 'pending',
  loggedAt: 1_000,
  ...over,
})

const HUNK = {
  path: 'src/a.ts',
  hunks: [
    {
      oldStart: 9,
      oldLines: 3,
      newStart: 9,
      newLines: 3,
      lines: [' keep', '-old line', '+new line', ' tail'],
    },
  ],
}

describe('tool card', () => {
  test('a pending call shows its name, key argument and "pending", without a duration', () => {
    const [header] = renderToolCard(card(), plain, 80).map(strip)
    expect(header).toMatch(/^○ bash npm test -- --run packages\/tui +pending$/)
  })

  test('a running call shows "running" and the time since its body started', () => {
    const [header] = renderToolCard(card({ status: 'running', startedAt: 1_000 }), plain, 80, 3_500).map(
      strip,
    )
    expect(header).toMatch(/● bash .* running 2\.5s$/)
  })

  test('done and failed show their duration; failed output sits under the header', () => {
    const done = renderToolCard(card({ status: 'done', startedAt: 1_000, endedAt: 1_400 }), plain, 80).map(
      strip,
    )
    expect(done[0]).toMatch(/^✓ bash .* done 0\.4s$/)
    const failed = renderToolCard(
      card({ status: 'failed', startedAt: 0, endedAt: 61_000, output: 'exit code 1\nboom' }),
      plain,
      80,
    ).map(strip)
    expect(failed[0]).toMatch(/^✗ bash .* failed 1m 01s$/)
    expect(failed.slice(1)).toEqual(['    exit code 1', '    boom'])
  })

  test('waiting for approval, and denied (which never ran: no duration)', () => {
    expect(statusWord(card({ approval: 'asked' }))).toBe('waiting for approval')
    const denied = card({ status: 'failed', approval: 'denied', startedAt: 0, endedAt: 5_000 })
    expect(strip(renderToolCard(denied, plain, 80)[0])).toMatch(/ denied$/)
  })

  test('narrow terminals: every line fits 60 and 30 columns; the key argument is cut first', () => {
    const long = card({ keyArg: 'x'.repeat(200), status: 'done', startedAt: 0, endedAt: 1_000, diff: HUNK })
    for (const width of [60, 30]) {
      const lines = renderToolCard(long, colour, width)
      expect(widest(lines)).toBeLessThanOrEqual(width)
      expect(strip(lines[0])).toMatch(/done 1\.0s$/)
    }
  })

  test('ASCII glyphs for a non-UTF-8 locale', () => {
    const lines = renderToolCard(card({ status: 'done', startedAt: 0, endedAt: 10 }), ascii, 60)
    expect(lines[0].startsWith('+ bash')).toBe(true)
    expect(lines.join('\n')).toMatch(/^[\x00-\x7f]*$/)
  })
})

describe('diff card', () => {
  test('the applied hunk: path, @@ header, numbered lines with - and +', () => {
    const lines = renderDiff(HUNK, plain, 80).map(strip)
    expect(lines).toEqual([
      '  src/a.ts',
      '  @@ -9,3 +9,3 @@',
      '   9   keep',
      '  10 - old line',
      '  10 + new line',
      '  11   tail',
    ])
  })

  test('removed lines red and added lines green with colour; no escape code at all without', () => {
    const coloured = renderDiff(HUNK, colour, 80)
    expect(coloured.find((l) => strip(l).includes('- old line'))).toContain('\x1b[31m')
    expect(coloured.find((l) => strip(l).includes('+ new line'))).toContain('\x1b[32m')
    expect(renderDiff(HUNK, plain, 80).some(hasStyle)).toBe(false)
  })

  test('a created file shows every line as added; a long diff is cut with a count', () => {
    const created = renderDiff({ path: 'n.txt', created: 'a\nb\n' }, plain, 80).map(strip)
    expect(created).toEqual(['  n.txt (new file)', '  1 + a', '  2 + b'])
    const big = { path: 'b.txt', created: Array.from({ length: 100 }, (_, i) => `l${i}`).join('\n') }
    const cut = renderDiff(big, plain, 80, 10).map(strip)
    expect(cut).toHaveLength(12)
    expect(cut.at(-1)).toBe('  … 90 more lines')
  })

  test('tabs become spaces so the line is as wide as measured', () => {
    const lines = renderDiff({ path: 't', created: '\tindented' }, plain, 20)
    expect(lines[1]).not.toContain('\t')
  })
})

describe('key argument of several lines', () => {
  test('the first line and how many more, never the lines joined', () => {
    expect(keyArgument('git status\ntouch x\n\nrm y')).toBe('git status (+2 more lines)')
    expect(keyArgument('git status\n')).toBe('git status')
  })
})

describe('a running call with progress', () => {
  test('shows its latest report under the header while it runs, and not once it is done', () => {
    const running = renderToolCard(
      card({ status: 'running', startedAt: 1_000, progress: '2/5 indexing' }),
      plain,
      80,
      2_000,
    )
    expect(strip(running[1] ?? '')).toContain('2/5 indexing')
    const done = renderToolCard(
      card({ status: 'done', startedAt: 1_000, endedAt: 1_500, progress: '2/5 indexing' }),
      plain,
      80,
    )
    expect(done.map(strip).join('\n')).not.toContain('indexing')
  })
})
