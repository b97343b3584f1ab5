import QRCode from 'qrcode';

// Medium error correction (15 %): survives a print smudge or a small logo, keeps the code small.
const OPTIONS = { errorCorrectionLevel: 'M', margin: 2 } as const;

/** A QR code of the text as a scalable SVG document. */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { ...OPTIONS, type: 'svg' });
}

/** A QR code of the text as a PNG image `size` pixels wide. */
export function qrPng(text: string, size: number): Promise<Buffer> {
  return QRCode.toBuffer(text, { ...OPTIONS, type: 'png', width: size });
}
