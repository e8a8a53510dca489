// cli/campaign_mutant.h - planted campaign-merge bugs the tests must catch (test-only library
// rocref_campaign_mutable).
//
// Compiled in only with ROCREF_CAMPAIGN_MUTANTS; elsewhere campaign_mutant_active() is a
// constant false and the branches vanish.
#pragma once

namespace rocref::campaign {

enum class CampaignMutant : unsigned {
  MissingItemDropped,  // CAMP-MRG-2: an item without a result leaves no row and fails nothing
  DuplicateLastWins,   // CAMP-MRG-3: a second result for one item silently replaces the first
  ExitStatusIgnored,   // CAMP-RES-1: an item passes on its output alone, whatever its exit status
  kCount
};

#ifdef ROCREF_CAMPAIGN_MUTANTS
bool campaign_mutant_active(CampaignMutant m) noexcept;
void set_campaign_mutant(CampaignMutant m, bool on) noexcept;
#else
constexpr bool campaign_mutant_active(CampaignMutant) noexcept { return false; }
#endif

}  // namespace rocref::campaign
