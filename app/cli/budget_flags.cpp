#include "app/cli/budget_flags.h"

namespace tandem::cli {

std::vector<FlagSpec> budgetFlags() {
    return {{"tokens", "N",
             "tokens to train on (e.g. 300e9): adds days to train, device-hours and MWh"},
            {"price-per-device-hour", "X",
             "price of one device for one hour (needs --tokens): adds the cost to train"}};
}

core::Expected<std::optional<core::io::BudgetContext>> budgetFrom(const CliArguments& args,
                                                                  double tokensPerSample) {
    if (!args.has("tokens")) {
        if (args.has("price-per-device-hour"))
            return core::Error{
                "--price-per-device-hour needs --tokens N: the cost is the device-hours to "
                "train on N tokens times the price"};
        return std::optional<core::io::BudgetContext>();
    }
    // Up to 10^18 tokens: a thousand times the largest training sets of today.
    const auto tokens = args.real("tokens", 0, 1, 1e18);
    if (!tokens) return tokens.error();
    const auto price = args.real("price-per-device-hour", -1, 0, 1e9);
    if (!price) return price.error();
    core::io::BudgetContext context;
    context.budget.tokens = *tokens;
    context.budget.pricePerDeviceHour = args.has("price-per-device-hour") ? *price : -1.0;
    context.tokensPerSample = tokensPerSample;
    return std::optional<core::io::BudgetContext>(context);
}

}  // namespace tandem::cli
