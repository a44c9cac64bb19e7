import { invalidInput } from '../core/errors.ts'

/** The kinds of receipt file the service keeps, recognised by their first bytes. */
export const RECEIPT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const
export type ReceiptType = (typeof RECEIPT_TYPES)[number]

const NAMES: Record<ReceiptType, string> = {
  'image/jpeg': 'una foto JPEG',
  'image/png': 'una imagen PNG',
  'image/webp': 'una imagen WebP',
  'application/pdf': 'un PDF',
}
export const EXTENSIONS: Record<ReceiptType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
}
const BY_EXTENSION: Record<string, ReceiptType> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  pdf: 'application/pdf',
}

/** What the bytes are, from their signature (never from a name or a declared type), or null. */
export function sniffReceipt(bytes: Buffer): ReceiptType | null {
  const starts = (...signature: number[]) =>
    bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte)
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg'
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png'
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes.length >= 12 && bytes.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp'
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf'
  return null
}

export interface ReceiptCheck {
  bytes: Buffer
  /** The Content-Type the client declared, if any. */
  declaredType: string | undefined
  /** The file's name, if the client gave it (`nombre`). */
  name: string | undefined
  maxBytes: number
}

/**
 * The receipt's kind, when the bytes are one the service keeps, within the size, and nothing the
 * client said about it (its Content-Type, its name) claims another kind: a mislabelled file is
 * refused rather than kept as something other than what its sender thinks it is.
 * @throws DomainError INVALID_INPUT (422) saying what is wrong and what to send instead.
 */
export function requireReceipt({ bytes, declaredType, name, maxBytes }: ReceiptCheck): ReceiptType {
  if (bytes.length === 0)
    throw invalidInput(
      'El comprobante llegó vacío (0 bytes): envíe la foto o el PDF de la boleta como cuerpo de la solicitud.',
    )
  if (bytes.length > maxBytes) {
    throw invalidInput(
      `El comprobante pesa ${megabytes(bytes.length)} y el máximo es ${megabytes(maxBytes)} (settlement.maxReceiptMB): reduzca la foto (la consola la achica sola) o envíe un PDF más liviano.`,
    )
  }
  const type = sniffReceipt(bytes)
  if (type === null) {
    throw invalidInput(
      'El comprobante no es una foto JPEG, PNG o WebP ni un PDF (se reconoce por su contenido, no por su nombre): envíe la foto o el PDF de la boleta.',
    )
  }
  const declared = declaredType?.split(';')[0]!.trim().toLowerCase()
  if (
    declared !== undefined &&
    declared !== '' &&
    declared !== 'application/octet-stream' &&
    normalised(declared) !== type
  ) {
    throw invalidInput(
      `El comprobante se envió como ${declared} pero su contenido es ${NAMES[type]}: envíelo con su tipo real (Content-Type: ${type}).`,
    )
  }
  const extension = name === undefined ? undefined : /\.([A-Za-z0-9]{1,8})$/.exec(name.trim())?.[1]?.toLowerCase()
  if (extension !== undefined && BY_EXTENSION[extension] !== type) {
    throw invalidInput(
      `El archivo ${name!.trim()} se llama como ${BY_EXTENSION[extension] === undefined ? `un .${extension}` : NAMES[BY_EXTENSION[extension]]} pero su contenido es ${NAMES[type]}: revise que sea el comprobante correcto.`,
    )
  }
  return type
}

function normalised(declared: string): string {
  return declared === 'image/jpg' || declared === 'image/pjpeg' ? 'image/jpeg' : declared
}

function megabytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}
