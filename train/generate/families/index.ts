import type { Family } from '../types.ts';
import { bankStatement } from './bank-statement.ts';
import { certificate } from './certificate.ts';
import { contract } from './contract.ts';
import { formBoxes } from './form-boxes.ts';
import { invoice } from './invoice.ts';
import { lease } from './lease.ts';
import { letter } from './letter.ts';
import { nda } from './nda.ts';
import { payslip } from './payslip.ts';
import { purchaseOrder } from './purchase-order.ts';
import { receipt } from './receipt.ts';
import { registration } from './registration.ts';
import { report } from './report.ts';
import { utilityBill } from './utility-bill.ts';

export const FAMILIES: Family[] = [
  invoice,
  receipt,
  purchaseOrder,
  bankStatement,
  payslip,
  utilityBill,
  formBoxes,
  registration,
  contract,
  nda,
  lease,
  letter,
  report,
  certificate,
];
