import { Fragment, type ReactNode } from 'react'
import { cn } from '#app/lib/utils.ts'
import { SNIPPETS } from './snippets.ts'
import type { DocsSection } from './content/types.ts'

const codeClass = 'rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800 dark:bg-slate-800 dark:text-slate-200'

/** A line of docs prose: text between backticks reads as code. */
export function Prose({ text }: { text: string }) {
  const parts = text.split('`')
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <code key={index} className={codeClass}>
            {part}
          </code>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  )
}

/**
 * Commands to copy: selectable text in a block that scrolls sideways (reachable by keyboard, so
 * its long lines can be scrolled without a mouse) and prints wrapped.
 */
export function CodeBlock({ code, label }: { code: string; label?: string }) {
  return (
    <pre
      tabIndex={0}
      aria-label={label}
      className="overflow-x-auto rounded-lg border focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 border-slate-200 bg-slate-50 p-3 font-mono text-[13px] leading-relaxed text-slate-800 print:whitespace-pre-wrap print:break-inside-avoid dark:border-slate-800 dark:bg-slate-900 dark:text-slate-200"
    >
      <code>{code}</code>
    </pre>
  )
}

/** The title block of a docs page. */
export function DocsTitle({ title, lead }: { title: string; lead?: string }) {
  return (
    <header className="mb-8 border-b border-slate-200 pb-6 dark:border-slate-800">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      {lead ? (
        <p className="mt-3 max-w-3xl text-[15px] leading-relaxed text-slate-600 dark:text-slate-300">
          <Prose text={lead} />
        </p>
      ) : null}
    </header>
  )
}

/** A part of a docs page: its heading links to itself (a deep link), an optional intro, then the content. */
export function DocsPart({ id, title, intro, className, children }: { id: string; title: string; intro?: string; className?: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={cn('mb-10 scroll-mt-6', className)}>
      <h2 id={`${id}-title`} className={cn('text-lg font-semibold tracking-tight', intro ? 'mb-1' : 'mb-3')}>
        <a href={`#${id}`} className="hover:underline">
          {title}
        </a>
      </h2>
      {intro ? (
        <p className="mb-4 max-w-3xl text-sm text-slate-600 dark:text-slate-400">
          <Prose text={intro} />
        </p>
      ) : null}
      {children}
    </section>
  )
}

/** One section of a prose page. */
export function DocsSectionView({ section }: { section: DocsSection }) {
  return (
    <DocsPart id={section.id} title={section.title} className="max-w-4xl">
      <div className="space-y-3 text-[15px] leading-relaxed text-slate-700 dark:text-slate-300">
        {section.paragraphs.map((text, index) => (
          <p key={index} className="max-w-3xl">
            <Prose text={text} />
          </p>
        ))}
        {section.items ? (
          <ul className="max-w-3xl list-disc space-y-1 pl-5">
            {section.items.map((item, index) => (
              <li key={index}>
                <Prose text={item} />
              </li>
            ))}
          </ul>
        ) : null}
        {section.snippets?.map((key) => (
          <CodeBlock key={key} code={SNIPPETS[key]} />
        ))}
      </div>
    </DocsPart>
  )
}
