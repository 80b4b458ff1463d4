import { Fragment } from 'react'
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

/** One section of a prose page, with an anchor on its heading. */
export function DocsSectionView({ section }: { section: DocsSection }) {
  return (
    <section id={section.id} aria-labelledby={`${section.id}-title`} className="mb-10 max-w-4xl scroll-mt-6">
      <h2 id={`${section.id}-title`} className="group mb-3 text-lg font-semibold tracking-tight">
        <a href={`#${section.id}`} className="hover:underline">
          {section.title}
        </a>
      </h2>
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
        {section.snippets?.map((key) => <CodeBlock key={key} code={SNIPPETS[key]} />)}
      </div>
    </section>
  )
}
