import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

/**
 * Every relative link of README.md and of the guides under docs/ (the decisions included) leads
 * somewhere: the file or folder it names exists, and an anchor into a markdown file names one of
 * its headings — so a guide moved, renamed or split cannot leave a reader at a dead link.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url))

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? markdownFiles(join(dir, entry.name))
      : entry.name.endsWith('.md')
        ? [join(dir, entry.name)]
        : [],
  )
}

/** The text outside fenced code blocks and inline code, where a `](` is no link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '``')
}

/** GitHub's anchor of a heading: its text in lower case, without punctuation, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-')
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```$/gm, '')
  const anchors = new Set<string>()
  for (const match of text.matchAll(/^#{1,6} (.+?)\s*$/gm)) {
    const base = slug(match[1]!)
    // A repeated heading gets -1, -2… as on GitHub.
    let anchor = base
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`
    anchors.add(anchor)
  }
  return anchors
}

interface Link {
  from: string
  target: string
  line: number
}

function linksOf(file: string): Link[] {
  const text = prose(readFileSync(file, 'utf8'))
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => ({
      from: relative(ROOT, file),
      target: match[1]!,
      line: text.slice(0, match.index).split('\n').length,
    }))
    .filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link.target))
}

const files = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))]
const links = files.flatMap(linksOf)

test('doc links: README.md and docs/ hold relative links to check, the decisions among them', () => {
  assert.ok(links.length > 100, `found ${links.length}`)
  assert.ok(links.some((link) => link.from === 'README.md' && link.target.startsWith('docs/decisiones/')))
  assert.ok(links.some((link) => link.from === join('docs', 'desarrollo.md') && link.target.startsWith('decisiones/')))
})

test('doc links: every relative link of README.md and docs/ names a file or folder that exists', () => {
  const broken = links.filter((link) => {
    const path = decodeURIComponent(link.target.split('#')[0]!)
    return path !== '' && !existsSync(join(dirname(join(ROOT, link.from)), path))
  })
  assert.deepEqual(
    broken.map((link) => `${link.from}:${link.line} → ${link.target}`),
    [],
  )
})

test('doc links: every anchor into a markdown file names one of its headings', () => {
  const broken = links.filter((link) => {
    const [path, anchor] = link.target.split('#')
    if (anchor === undefined) return false
    const file = path === '' ? join(ROOT, link.from) : join(dirname(join(ROOT, link.from)), decodeURIComponent(path!))
    if (!file.endsWith('.md') || !existsSync(file) || statSync(file).isDirectory()) return false
    return !anchorsOf(file).has(decodeURIComponent(anchor))
  })
  assert.deepEqual(
    broken.map((link) => `${link.from}:${link.line} → ${link.target}`),
    [],
  )
})

test('doc links: every decision file is listed in the decisions index', () => {
  const index = readFileSync(join(ROOT, 'docs/decisiones/README.md'), 'utf8')
  const decisionFiles = readdirSync(join(ROOT, 'docs/decisiones')).filter(
    (name) => name.endsWith('.md') && name !== 'README.md',
  )
  assert.ok(decisionFiles.length >= 10, `found ${decisionFiles.length}`)
  assert.deepEqual(
    decisionFiles.filter((name) => !index.includes(`](${name})`)),
    [],
  )
})
