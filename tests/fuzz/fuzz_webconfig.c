/* fuzz_webconfig.c — --web-config's file (webconfig_parse in export/webconfig.c, through
 * libyaml), the files it names left unread. Taken: a certificate and a key named together or
 * neither, each user with a name and a bcrypt hash of 60 characters at a cost of 4 to 14; refused:
 * a message, and nothing left in the result. Among the seeds: 100,000 nested '[', which took
 * libyaml 42 to 97 s before delaytop stopped at the 33rd level. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "webconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct web_config wc;
	unsigned long line = 0;
	char err[512];

	/* the bytes as they are: a NUL inside is libyaml's to refuse */
	if (webconfig_parse((const char *)data, size, "/etc/delaytop", &wc, &line, err, sizeof(err)) == 0) {
		if (!wc.cert_file != !wc.key_file || wc.cert_pem || wc.key_pem)
			abort();
		for (size_t i = 0; i < wc.nusers; i++) {
			const char *h = wc.users[i].hash;

			if (!wc.users[i].name[0] || strlen(h) != 60 ||
			    (h[4] - '0') * 10 + (h[5] - '0') < WEBCONFIG_COST_MIN ||
			    (h[4] - '0') * 10 + (h[5] - '0') > WEBCONFIG_COST_MAX)
				abort();
		}
		webconfig_free(&wc);
	} else if (!err[0] || wc.cert_file || wc.key_file || wc.nusers || wc.users) {
		abort();
	}
	return 0;
}
