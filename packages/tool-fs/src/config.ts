// The validated Config of FsToolsPlugin: every tunable of the read / glob / grep tools (TL-12, TL-16).
import { isAbsolute } from 'node:path'
import { type ConfigOf, Schema } from '@tack/kernel'

const MIB = 1024 * 1024

export const FsToolsConfig = Schema.object({
  readLimit: Schema.integer({
    default: 2000,
    min: 1,
    max: 100_000,
    description: 'Lines `read` returns when the call gives no `limit` (TL-12).',
  }),
  readMaxLineLength: Schema.integer({
    default: 2000,
    min: 16,
    max: 1_000_000,
    description: 'Characters of one line `read` and `grep` show; a longer line is cut and marked (TL-12).',
  }),
  readMaxBytes: Schema.integer({
    default: 51_200,
    min: 1024,
    max: 64 * MIB,
    description:
      'Bytes of output after which `read` stops (at a line boundary; the first line is always shown) (TL-12).',
  }),
  readImageMaxBytes: Schema.integer({
    default: 3_932_160,
    min: 0,
    max: 20 * MIB,
    description:
      "Bytes of a PNG, JPEG, GIF or WebP file `read` returns as an image (docs/decisions/0285-user-images.md); a larger one is answered with a note naming its size and pixels, unread. The default, 3.75 MiB, is 5 MiB as base64: Anthropic's limit per image (the tools' `maxImageBytes` bounds every result's images too).",
  }),
  readImageMaxLongEdge: Schema.integer({
    default: 8000,
    min: 1,
    max: 100_000,
    description:
      "Pixels of the longer side of an image `read` returns (read from its header); past it `read` answers with a note naming the size. The default is Anthropic's limit (it refuses an image past 8000 px).",
  }),
  readStreamMinSize: Schema.integer({
    default: 10 * MIB,
    min: 0,
    max: 1024 * MIB,
    description:
      'File size in bytes from which `read`, `grep`, `edit` and `write` stream the file instead of loading it: such a file is never held in memory whole (TL-12, docs/decisions/0165-streaming-huge-files.md).',
  }),
  streamChunkBytes: Schema.integer({
    default: 64 * 1024,
    min: 4096,
    max: 64 * MIB,
    description:
      "Bytes read (and written) at a time when a file is streamed (see `readStreamMinSize`). With the kept part of one line (`grepMaxLineLength`, `readMaxLineLength`) and `edit`'s strings, what a streamed call holds in memory, whatever the file's size (docs/decisions/0165-streaming-huge-files.md).",
  }),
  grepMaxLineLength: Schema.integer({
    default: MIB,
    min: 1024,
    max: 256 * MIB,
    description:
      'Characters of one line `grep` searches; a longer line (a minified bundle, a one-line data file) is searched in its first part only, its match is shown cut, and the search goes on (issue 9.6).',
  }),
  diffMaxChars: Schema.integer({
    default: 4_000_000,
    min: 0,
    max: 256 * MIB,
    description:
      'Characters of both sides together above which `write` and `edit` report what changed in counts (lines removed and added, bytes) instead of a diff (issue 9.6).',
  }),
  diffTimeoutMs: Schema.integer({
    default: 2000,
    min: 10,
    max: 600_000,
    description:
      'Time a `write` or `edit` diff may take (computed off the main thread when it is big); past it the result reports counts instead (issue 9.6).',
  }),
  searchTimeoutMs: Schema.integer({
    default: 30_000,
    min: 100,
    max: 3_600_000,
    description:
      "Time one `grep` or `glob` call may search. The model's pattern runs in a worker thread, never on the main thread; past this time (or on abort) the worker is stopped and the call fails with an error saying so: a RegExp like `(a+)+$` can take minutes on one line (docs/decisions/0120-model-patterns-off-thread.md).",
  }),
  globMaxResults: Schema.integer({
    default: 1000,
    min: 1,
    max: 1_000_000,
    description: 'Paths `glob` returns before it stops with a note (TL-16).',
  }),
  ripgrep: Schema.json<string>({
    default: 'auto',
    allowed: '`auto`, `off` or an absolute path',
    test: (v): v is string => v === 'auto' || v === 'off' || (typeof v === 'string' && isAbsolute(v)),
    description:
      'ripgrep as the file finder of `glob` and `grep` (issue 12.4): `auto` uses `rg` when it is on PATH, `off` never, an absolute path that binary. Results are the same either way; the RegExp still decides every match.',
  }),
  grepMaxMatches: Schema.integer({
    default: 500,
    min: 1,
    max: 1_000_000,
    description:
      'Entries `grep` returns (matching lines, files or counts, per `output`) before it stops with a note (TL-16).',
  }),
  mentionMaxBytes: Schema.integer({
    default: 51_200,
    min: 1024,
    max: 64 * MIB,
    description:
      "Bytes of one `@path` mention's text: the file as `read` shows it, stopped at a line boundary with `read`'s note saying where it continues (85-skills-and-commands.md I1, docs/decisions/0280-file-mentions.md).",
  }),
  mentionMaxFiles: Schema.integer({
    default: 20,
    min: 0,
    max: 1000,
    description:
      'Distinct `@path` mentions of one prompt that are attached; past it the rest stay text and a note says so. `0` turns file mentions off (docs/decisions/0280-file-mentions.md).',
  }),
  mentionIndexMaxFiles: Schema.integer({
    default: 50_000,
    min: 100,
    max: 5_000_000,
    description:
      "Paths the prompt box's `@` completion knows of a workspace (from `git ls-files`, else a walk that skips `.gitignore`d folders and `node_modules`); a bigger tree is offered in part (docs/decisions/0280-file-mentions.md).",
  }),
})
export type FsToolsConfig = ConfigOf<typeof FsToolsConfig>
