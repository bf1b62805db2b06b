/**
 * Payload types of the interface. Placeholder shapes until the generated types
 * (lib/generated/, from schemas/) replace them; names follow the spec.
 */
export type JsonObject = Record<string, unknown>;

export interface MerchantCustomerDetails extends JsonObject {
  FirstName?: string; LastName?: string; Email?: string; Address1?: string; Address2?: string;
  City?: string; Zip?: string; CountryCode?: string; StateOrProvice?: string; Phone1?: string;
}
export interface MerchantPaymentDetails extends JsonObject {
  CardNumber?: string; CVVNumber?: string; ExpirationDate?: string; OwnerName?: string;
}
export interface MerchantOrder extends JsonObject {
  MerchantGUID?: string;
  OrderId?: string;
  MerchantOrderId?: string;
  StatusCode?: string;
  PrimaryBilling?: MerchantCustomerDetails;
  PrimaryShipping?: MerchantCustomerDetails;
  SecondaryBilling?: MerchantCustomerDetails;
  SecondaryShipping?: MerchantCustomerDetails;
  PaymentDetails?: MerchantPaymentDetails;
  Products?: JsonObject[];
  AdditionalRequiredDocuments?: OrderDocument[];
  Subs?: MerchantOrder[];
}
export interface OrderDocument extends JsonObject {
  DocumentTypeCode?: string; DocumentTypeName?: string; DocumentExtension?: string; URL?: string;
  DocumentData?: string; ParcelCode?: string; TrackingNumber?: string;
}
export interface CheckoutCartInfo extends JsonObject {
  productsList: JsonObject[];
}
export interface ResponseInfo extends JsonObject {
  Success: boolean;
  Message?: string;
  Description?: string;
  ErrorCode?: string;
  InternalOrderId?: string;
  OrderId?: string;
  StatusCode?: string;
  PaymentAmount?: string;
  PaymentCurrencyCode?: string;
}
export interface AdditionalDocumentsDelivery extends JsonObject {
  MerchantGUID?: string;
  OrderId?: string;
  Documents?: OrderDocument[];
}
