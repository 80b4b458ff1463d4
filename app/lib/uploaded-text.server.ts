/**
 * The text file of an upload form that previews before it applies (the ECB's rates, product
 * costs): the file chosen, or the text the preview carried on to the apply in a hidden field
 * (`carried`); `commit` when the apply button sent it. Nothing, or more than `maxBytes`, is refused
 * in the words given, for the file's field.
 */
export async function readUploadedText(
  form: FormData,
  options: { carried: string; maxBytes: number; words: { required: string; tooLarge: string } },
): Promise<{ ok: true; text: string; commit: boolean } | { ok: false; message: string }> {
  const file = form.get('file')
  const text = file instanceof File && file.size ? await file.text() : String(form.get(options.carried) ?? '')
  if (!text.trim()) return { ok: false, message: options.words.required }
  if (text.length > options.maxBytes) return { ok: false, message: options.words.tooLarge }
  return { ok: true, text, commit: form.get('intent') === 'commit' }
}
