/**
 * A receipt photo made small in the browser before it is sent (issue 40): a phone's picture of a
 * bank slip (4,000 px, 3–6 MB) is drawn on a canvas at most MAX_SIDE pixels on its longer side and
 * saved as JPEG, ~300 KB — still sharp enough to read the amounts and the slip number. A PDF goes
 * as it is.
 */
export const MAX_SIDE = 1600
const QUALITY = 0.82

export interface ReadyReceipt {
  file: Blob
  name: string
  /** What the person is told it became: `boleta.jpg · 287 KB · 1600×1200`. */
  description: string
}

export async function prepareReceipt(chosen: File): Promise<ReadyReceipt> {
  if (chosen.type === 'application/pdf' || /\.pdf$/i.test(chosen.name)) {
    return {
      file: chosen.type === 'application/pdf' ? chosen : new Blob([chosen], { type: 'application/pdf' }),
      name: chosen.name,
      description: `${chosen.name} · ${size(chosen.size)}`,
    }
  }
  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(chosen, { imageOrientation: 'from-image' })
  } catch {
    throw new Error(
      `El navegador no puede abrir «${chosen.name}» como foto. Tómela de nuevo con la cámara, o elija una foto JPEG, PNG o WebP, o un PDF.`,
    )
  }
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height))
  const width = Math.max(1, Math.round(bitmap.width * scale))
  const height = Math.max(1, Math.round(bitmap.height * scale))
  const canvas = document.createElement('canvas')
  canvas.width = width
  canvas.height = height
  const context = canvas.getContext('2d')
  if (context === null) throw new Error('El navegador no pudo preparar la foto. Vuelva a intentarlo o elija un PDF.')
  // A white page under a PNG's transparency: JPEG has none, and black would hide the slip's text.
  context.fillStyle = '#ffffff'
  context.fillRect(0, 0, width, height)
  context.drawImage(bitmap, 0, 0, width, height)
  bitmap.close()
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', QUALITY))
  if (blob === null) throw new Error('El navegador no pudo achicar la foto. Vuelva a intentarlo o elija un PDF.')
  const name = `${chosen.name.replace(/\.[^.]*$/, '') || 'boleta'}.jpg`
  return { file: blob, name, description: `${name} · ${size(blob.size)} · ${width}×${height}` }
}

function size(bytes: number): string {
  return bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}
