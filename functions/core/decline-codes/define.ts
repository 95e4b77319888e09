import type { Psp } from '#core/providers';
import { subcategoryInfo } from './categories';
import { type RecoveryAdjustment, recoveryRate } from './recovery-rates';
import type { DeclineCategory, DeclineCodeRecord, SubcategoryOf } from './types';

/** What a provider file states about one code; the record's rate and default action are derived. */
export interface DeclineCodeOptions {
  /** Code-specific next step; the subcategory's default action otherwise. */
  readonly action?: string;
  /** Reasons this code departs from its subcategory's baseline recovery rate (recovery-rates.ts). */
  readonly adjust?: readonly RecoveryAdjustment[];
  /** Raw ISO 8583 response code, only where the provider's documentation gives it. */
  readonly networkCode?: string;
}

export interface DeclineCodeDefinition {
  readonly code: string;
  readonly category: DeclineCategory;
  readonly subcategory: string;
  readonly description: string;
  readonly options: DeclineCodeOptions;
}

/** One catalogue line; the compiler checks that the subcategory belongs to the category. */
export const decline = <C extends DeclineCategory>(
  code: string,
  category: C,
  subcategory: SubcategoryOf<C>,
  description: string,
  options: DeclineCodeOptions = {},
): DeclineCodeDefinition => ({ code, category, subcategory, description, options });

export const defineProviderCodes = (psp: Psp, definitions: readonly DeclineCodeDefinition[]): readonly DeclineCodeRecord[] =>
  definitions.map((definition) => {
    const subcategory = definition.subcategory as SubcategoryOf<DeclineCategory>;
    return {
      psp,
      code: definition.code,
      category: definition.category,
      subcategory,
      description: definition.description,
      recommended_action: definition.options.action ?? subcategoryInfo(subcategory).default_action,
      recovery_rate: recoveryRate(definition.category, subcategory, definition.options.adjust),
      ...(definition.options.networkCode === undefined ? {} : { network_code: definition.options.networkCode }),
    } as DeclineCodeRecord;
  });
