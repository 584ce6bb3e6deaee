// The child process of huge-files.test.ts: runs one fs tool call on `big.txt` in the folder it is
// given, after the same call on `small.txt` (so the worker, the modules and the heap are warm), and
// prints the peak RSS before and after the big call and the big call's result as one JSON line.
//   node huge-file-child.ts <folder> <tool> <config JSON>
import { fsContext, run, stubAgent, textOf } from './support.ts'

const [cwd, tool, config] = process.argv.slice(2)
const ctx = await fsContext(JSON.parse(config))
const agent = stubAgent(cwd)
const call = async (file: string) => {
  if (tool !== 'grep') await run(ctx, 'read', { file_path: file, limit: 1 }, { cwd, agent })
  const args =
    tool === 'grep'
      ? { pattern: 'needle \\d+', path: file, output: 'content' }
      : { file_path: file, content: 'the new content\n' }
  return run(ctx, tool, args, { cwd, agent })
}
const peakMib = () => process.resourceUsage().maxRSS / 1024
await call('small.txt')
const before = peakMib()
const result = await call('big.txt')
process.stdout.write(
  `${JSON.stringify({ before, after: peakMib(), isError: result.isError, text: textOf(result) })}\n`,
)
