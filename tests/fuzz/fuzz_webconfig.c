/* fuzz_webconfig.c — --web-config's file (webconfig_parse in export/webconfig.c, through
 * libyaml), the files it names left unread. Taken: a certificate and a key named together or
 * neither, each user with a name and a bcrypt hash of 60 characters; refused: a message, and
 * nothing left in the result. */
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
		for (size_t i = 0; i < wc.nusers; i++)
			if (!wc.users[i].name[0] || strlen(wc.users[i].hash) != 60)
				abort();
		webconfig_free(&wc);
	} else if (!err[0] || wc.cert_file || wc.key_file || wc.nusers || wc.users) {
		abort();
	}
	return 0;
}
