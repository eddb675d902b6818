package io.dynarestore.api;

import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.vault.VaultCatalog;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

/**
 * What a slice test of controllers that read the vault works with: MockMvc, a mocked catalog that
 * tests assert was not read, and the account registry of {@link ApiSlices.Beans}.
 */
public abstract class VaultSlice {

    @Autowired
    protected MockMvcTester mvc;

    @MockitoBean
    protected VaultCatalog catalog;

    @Autowired
    protected AwsClients aws;
}
