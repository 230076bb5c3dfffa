// Reads a TAP document on stdin as node's tap-parser does (strict: any line that is
// not TAP is an error) and prints what it read as JSON, for tests/consumers.rs.
import { Parser } from 'tap-parser'

const seen = { tapErrors: [], extra: [], points: [], subtests: [] }
const watch = (parser, depth) => {
  parser.on('assert', r => seen.points.push({ depth, ok: r.ok, id: r.id, name: r.name, skip: r.skip || false, todo: r.todo || false, diag: r.diag || null }))
  parser.on('child', c => {
    seen.subtests.push({ depth, name: c.name })
    watch(c, depth + 1)
  })
  parser.on('extra', l => seen.extra.push(l))
  parser.on('complete', res => {
    for (const f of res.failures) if (f.tapError) seen.tapErrors.push({ depth, error: f.tapError })
  })
}
const p = new Parser({ strict: true })
watch(p, 0)
p.on('complete', res => {
  seen.ok = res.ok
  seen.count = res.count
  seen.pass = res.pass
  seen.fail = res.fail
  seen.skip = res.skip
  seen.plan = { start: res.plan.start, end: res.plan.end }
  process.stdout.write(JSON.stringify(seen) + '\n')
})
process.stdin.pipe(p)
