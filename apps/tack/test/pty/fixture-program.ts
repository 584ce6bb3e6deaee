// A tiny interactive program for testing the pty harness before (and independently of) tack's UI: raw
// keys, an echoed input line, coloured output, Esc, resize and exit — the behaviours the harness must
// observe. `node fixture-program.ts`.
const color = process.env.NO_COLOR === undefined
const green = (s: string) => (color ? `\x1b[32m${s}\x1b[0m` : s)
const onBlue = (s: string) => (color ? `\x1b[1;37;44m${s}\x1b[0m` : s)
const rgb = (s: string) => (color ? `\x1b[38;2;255;128;0m${s}\x1b[0m` : s)

let line = ''
const out = (s: string) => process.stdout.write(s)
const prompt = () => out(`\r\x1b[2K> ${line}`)

process.stdin.setRawMode(true)
process.stdin.setEncoding('utf8')
out(`${onBlue(' fixture ')} ${rgb('ready')} ${process.stdout.columns}x${process.stdout.rows}\r\n`)
prompt()
process.stdout.on('resize', () => {
  out(`\r\x1b[2Ksize ${process.stdout.columns}x${process.stdout.rows}\r\n`)
  prompt()
})
// A pty may deliver several keys in one read ("abc\x7f"), so each character is a key.
process.stdin.on('data', (data: string) => {
  let redraw = true
  for (const key of data) redraw = onKey(key)
  if (redraw) prompt()
})

/** Handles one key; false when the key draws the prompt itself. */
function onKey(data: string): boolean {
  if (data === '\x1b') {
    out(`\r\x1b[2Kinterrupted\r\n`)
    line = ''
  } else if (data === '\x03' || (data === 'q' && line === '')) {
    out('\r\nbye\r\n')
    process.exit(3)
  } else if (data === '!') {
    // a synchronized frame written in two parts, 300 ms apart
    out('\r\x1b[2K\x1b[?2026hframe part one, ')
    setTimeout(() => {
      out('part two\x1b[?2026l\r\n')
      prompt()
    }, 300)
    return false
  } else if (data === '\r') {
    out(`\r\x1b[2K${green(`you said: ${line}`)}\r\n`)
    line = ''
  } else if (data === '\x7f') {
    line = line.slice(0, -1)
  } else {
    line += data
  }
  return true
}
