/**
 * The links of the guides (Markdown) that point at files — other guides, their pictures, an
 * example — as the release archive must carry them: release.ts follows them to know what to
 * ship, and test/build/release.test.ts checks, in each unpacked archive, that every one resolves.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'

export interface GuideLink {
  /** The guide the link is in, relative to the root (with `/`). */
  from: string
  /** As written. */
  target: string
  /** The file it names, relative to the root (with `/`); '' for a link within the same guide. */
  file: string
  /** The heading it names (`#…` without the sign), or null. */
  anchor: string | null
}

/** Every link of a Markdown text that is not a web address (`[texto](destino)` and `![imagen](destino)`). */
export function linksOf(root: string, guide: string, text: string): GuideLink[] {
  const withoutCode = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '')
  return [...withoutCode.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => {
      const [path = '', anchor] = target.split('#')
      const file =
        path === ''
          ? ''
          : relative(root, normalize(join(root, dirname(guide), decodeURIComponent(path))))
              .split('\\')
              .join('/')
      return { from: guide, target, file, anchor: anchor === undefined ? null : decodeURIComponent(anchor) }
    })
}

/** Every file reachable from `guides` by links (the guides themselves included), relative to `root`. */
export function linkedFiles(root: string, guides: readonly string[]): string[] {
  const found = new Set<string>()
  const pending = [...guides]
  while (pending.length > 0) {
    const file = pending.pop()!
    if (found.has(file)) continue
    found.add(file)
    if (!file.endsWith('.md') || !existsSync(join(root, file))) continue
    for (const link of linksOf(root, file, readFileSync(join(root, file), 'utf8')))
      if (link.file !== '') pending.push(link.file)
  }
  return [...found].sort()
}

/** The anchors GitHub and most Markdown viewers give a guide's headings (`## Instalar en Linux (systemd)` → `instalar-en-linux-systemd`). */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>()
  for (const match of text.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = match[1]!
      .toLowerCase()
      .replace(/[`*]/g, '')
      .replace(/[^\p{L}\p{M}\p{N}_\s-]/gu, '')
      .replace(/\s/g, '-')
    let anchor = base
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`
    anchors.add(anchor)
  }
  return anchors
}
