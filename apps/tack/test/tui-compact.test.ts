// Issue 16 acceptance (80-cli.md §5.4, 35-compaction.md): `/compact` typed in the real `tack` in a
// pseudo-terminal compacts the session — the screen says so, the model is asked for a summary, and the
// next prompt goes out with that summary in place of the older part. Run `node scripts/build.ts` first.
import { afterEach, expect, it } from 'vitest'
import { bashCall, closeAllTuis, openTui, submit } from './pty/tui-session.ts'

afterEach(closeAllTuis)

const SUMMARY = 'SUMMARY: the user had the agent count three times with seq.'

it('/compact replaces the older part with a summary the next request carries', async () => {
  const counts = [1, 2, 3].map((i) => bashCall(`seq ${i} 400`))
  const { term, server } = await openTui(
    [
      ...counts,
      { kind: 'text', text: 'Counted three times.' },
      { kind: 'text', text: SUMMARY },
      { kind: 'text', text: 'Still here after compaction.' },
    ],
    { args: ['--permission-mode', 'yolo'] },
  )
  await submit(term, 'count three times')
  await term.waitFor('Counted three times.', 30_000)
  expect(server.requests).toHaveLength(4)
  await submit(term, '/compact')
  await term.waitFor('conversation compacted', 30_000)
  // the fifth request asked the model for the summary
  expect(server.requests).toHaveLength(5)
  await submit(term, 'are you there?')
  await term.waitFor('Still here after compaction.', 30_000)
  const next = JSON.stringify(server.requests[5].body)
  expect(next).toContain(SUMMARY)
  expect(next).toContain('are you there?')
  // the older bash outputs are gone from what the model is sent
  expect(next.length).toBeLessThan(JSON.stringify(server.requests[3].body).length)
}, 90_000)
