import { useState } from 'preact/hooks'
import { downloadFile, type ApiError } from '../api/client.ts'
import { asApiError } from './data.ts'

/**
 * A button that downloads a file the service makes, showing progress while it is prepared and
 * the service's message if it refuses (too many rows, a bad filter).
 */
export function DownloadButton({
  href,
  label,
  onError,
}: {
  href: string
  label: string
  onError: (error: ApiError | null) => void
}) {
  const [busy, setBusy] = useState(false)
  const start = async () => {
    setBusy(true)
    onError(null)
    try {
      const file = await downloadFile(href)
      const url = URL.createObjectURL(file.blob)
      const link = document.createElement('a')
      link.href = url
      link.download = file.name
      document.body.append(link)
      link.click()
      link.remove()
      setTimeout(() => URL.revokeObjectURL(url), 60_000)
    } catch (failure) {
      onError(asApiError(failure))
    } finally {
      setBusy(false)
    }
  }
  return (
    <button type="button" onClick={() => void start()} disabled={busy} aria-busy={busy}>
      {busy ? 'Preparando…' : label}
    </button>
  )
}
