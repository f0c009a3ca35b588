/* station: a bot of razz-env's bot protocol (docs/protocol.md) in C. It checks or calls, brings in when it must,
 * and states that policy, so `razz exploit` can measure it.
 *
 *   cc -O2 -o station examples/bots/station.c
 *   razz exploit --agent cmd:./station --deals 100     (or seat cmd:./station in a tournament config)
 *
 * The dealer writes compact JSON with "type" first and "legal" last, so matching text is enough here; a bot that
 * reads more of the hand should parse JSON. */
#include <stdio.h>
#include <string.h>

/* The first of check, call, bring_in and fold that the request's "legal" list holds. */
static const char *choice(const char *line)
{
    static const char *const order[] = {"check", "call", "bring_in", "fold"};
    const char *legal = strstr(line, "\"legal\":[");
    char quoted[16];
    size_t i;

    for (i = 0; legal != NULL && i < sizeof order / sizeof order[0]; i++) {
        snprintf(quoted, sizeof quoted, "\"%s\"", order[i]);
        if (strstr(legal, quoted) != NULL)
            return order[i];
    }
    return "fold";
}

int main(void)
{
    static char line[1 << 16];

    while (fgets(line, sizeof line, stdin) != NULL) {
        if (strncmp(line, "{\"type\":\"hello\"", 15) == 0)
            puts("{\"ready\":true,\"name\":\"station\",\"policy\":true}");
        else if (strncmp(line, "{\"type\":\"act\"", 13) == 0)
            printf("{\"action\":\"%s\"}\n", choice(line));
        else if (strncmp(line, "{\"type\":\"policy\"", 16) == 0)
            printf("{\"policy\":{\"%s\":1}}\n", choice(line));
        else if (strncmp(line, "{\"type\":\"bye\"", 13) == 0)
            break;
        fflush(stdout);
    }
    return 0;
}
