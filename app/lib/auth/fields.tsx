import { type FieldMetadata } from '@conform-to/react'
import { getInputProps } from '#app/components/field-props.ts'
import { LabelledField } from '#app/components/forms.tsx'
import type { AuthMessages } from './messages.ts'

/** The sign-in pages' own control styles (the clean layout); their fields and errors are app/components/forms.tsx's. */
export const inputClass =
  'mt-1 block w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-slate-900 aria-[invalid=true]:border-red-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100'
export const buttonClass = 'w-full rounded bg-blue-700 px-3 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60'
export const secondaryButtonClass = 'w-full rounded border border-slate-300 px-3 py-2 font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800'

/** A new password typed twice (the reset page, an invitation): `NewPasswordSchema`'s two fields with their errors. */
export function NewPasswordFields({ fields, messages: m }: { fields: { password: FieldMetadata<string, any, string[]>; confirm: FieldMetadata<string, any, string[]> }; messages: AuthMessages }) {
  return (
    <>
      <LabelledField label={m.reset.newPassword} errors={fields.password.errors} errorId={fields.password.errorId}>
        <input {...getInputProps(fields.password, { type: 'password' })} autoComplete="new-password" className={inputClass} />
      </LabelledField>
      <LabelledField label={m.reset.confirmPassword} errors={fields.confirm.errors} errorId={fields.confirm.errorId}>
        <input {...getInputProps(fields.confirm, { type: 'password' })} autoComplete="new-password" className={inputClass} />
      </LabelledField>
    </>
  )
}
