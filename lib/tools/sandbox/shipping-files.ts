/**
 * The sandbox's shipping documents, generated deterministically from the order and parcel (the same
 * request gives the same bytes): a tiny but real one-page PDF (opens in any viewer, prints) and a ZPL
 * label (a ZPL printer or viewer renders it), so a merchant's printing code can be exercised.
 */
import { sha256Hex } from '../../shared/sha256.js';

/** A deterministic tracking number of a parcel: SB + 10 hex digits of its order and parcel code. */
export function sandboxTrackingNumber(orderId: string, parcelCode: string): string {
  return `SB${sha256Hex(Buffer.from(`${orderId}\n${parcelCode}`, 'utf8')).slice(0, 10).toUpperCase()}`;
}

const pdfText = (s: string): string => s.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`);

/** A one-page PDF (Helvetica, A4) showing `lines`; byte offsets of the xref table are exact. */
export function tinyPdf(lines: readonly string[]): Buffer {
  const content = `BT /F1 12 Tf 50 790 Td 16 TL ${lines.map((l) => `(${pdfText(l)}) Tj T*`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((n) => `${String(n).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const zplText = (s: string): string => s.replace(/[^\x20-\x7e]/g, '?').replace(/[\^~]/g, ' ');

/** A 4x6 ZPL label: order, parcel and a Code 128 barcode of the tracking number. */
export function zplLabel(orderId: string, parcelCode: string, trackingNumber: string): Buffer {
  return Buffer.from([
    '^XA', '^CI28', '^CF0,40', `^FO40,40^FDSANDBOX LABEL^FS`, '^CF0,30',
    `^FO40,100^FDOrder ${zplText(orderId)}^FS`, `^FO40,140^FDParcel ${zplText(parcelCode)}^FS`,
    `^FO40,200^BY3^BCN,150,Y,N,N^FD${zplText(trackingNumber)}^FS`, '^XZ', '',
  ].join('\n'), 'latin1');
}

export interface ShippingFile { name: string; typeCode: string; typeName: string; extension: 'PDF' | 'ZPL'; contentType: string; bytes: Buffer }

/** The documents of one parcel: its ZPL label and its commercial invoice (PDF). */
export function parcelFiles(orderId: string, parcelCode: string, products: ReadonlyArray<{ sku: string; quantity: number }>): ShippingFile[] {
  const tracking = sandboxTrackingNumber(orderId, parcelCode);
  return [
    { name: `${parcelCode}-label.zpl`, typeCode: '4', typeName: 'AWB', extension: 'ZPL', contentType: 'text/plain; charset=us-ascii', bytes: zplLabel(orderId, parcelCode, tracking) },
    {
      name: `${parcelCode}-invoice.pdf`, typeCode: '1', typeName: 'CommercialInvoiceAndPackingList', extension: 'PDF', contentType: 'application/pdf',
      bytes: tinyPdf(['SANDBOX COMMERCIAL INVOICE (not a customs document)', `Order ${orderId}`, `Parcel ${parcelCode}, tracking ${tracking}`,
        ...products.map((p) => `${p.quantity} x ${p.sku}`)]),
    },
  ];
}

/** The manifest of a dispatch (PDF): the orders and their parcels. */
export function manifestFile(name: string, orders: ReadonlyArray<{ orderId: string; parcels: readonly string[] }>): ShippingFile {
  return {
    name, typeCode: '3', typeName: 'Manifest', extension: 'PDF', contentType: 'application/pdf',
    bytes: tinyPdf(['SANDBOX SHIPPER MANIFEST', ...orders.map((o) => `${o.orderId}: ${o.parcels.join(', ') || 'no parcels'}`)]),
  };
}
