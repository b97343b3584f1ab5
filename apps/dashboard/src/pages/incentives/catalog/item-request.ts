import type { Body } from '../../../api/types';
import type { CatalogItem } from '../../../api/types';
import { stockOf, whole, type PricedValues } from '../cost-fields';

export interface ItemFormValues extends PricedValues {
  name: string;
  description: string;
  published: boolean;
}

export const NEW_ITEM: ItemFormValues = { name: '', description: '', coinCost: 100, tokenCost: 0, unlimited: true, stock: 10, published: false };

export function itemFormValues(item: CatalogItem): ItemFormValues {
  return {
    name: item.name,
    description: item.description,
    coinCost: item.coinCost,
    tokenCost: item.tokenCost,
    unlimited: item.inventory < 0,
    stock: item.inventory < 0 ? NEW_ITEM.stock : item.inventory,
    published: item.published,
  };
}

/** POST /incentives/catalog and PATCH /incentives/catalog/{id} take the same fields: every one the form edits. */
export function itemRequest(values: ItemFormValues): Body<'/api/v1/incentives/catalog', 'post'> {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    coinCost: whole(values.coinCost),
    tokenCost: whole(values.tokenCost),
    inventory: stockOf(values),
    published: values.published,
  };
}

/** The form field an API field is edited in (`inventory` is the stock field). */
export function itemFieldOf(apiField: string): string {
  return apiField === 'inventory' ? 'stock' : apiField;
}
