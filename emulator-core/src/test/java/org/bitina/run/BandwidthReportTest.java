package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.bitina.job.JobSpec;
import org.bitina.job.Mode;
import org.bitina.scenario.Scenario;
import org.bitina.usecase.UseCase;
import org.bitina.usecases.UseCases;
import org.junit.jupiter.api.Test;

/** A row carries its nccl-tests terms, so that no writer (jobs.csv, the sweep page, the NCCL table) plans them again. */
class BandwidthReportTest {
    @Test
    void algbwIsTheArraysBytesOverTheModelledTimeAndBusbwItsBusFactorTimesThat() {
        BandwidthReport r = BandwidthReport.of(new UseCase.Bandwidth(4096, 1.5), 2.0);
        assertEquals(4096L, r.dataBytes());
        assertEquals(2.048, r.algbwGBps(), 1e-12);
        assertEquals(3.072, r.busbwGBps(), 1e-12);
        assertEquals(BandwidthReport.NONE, BandwidthReport.of(null, 2.0), "a kind that reduces no array");
        BandwidthReport notRun = BandwidthReport.of(new UseCase.Bandwidth(4096, Double.NaN), 0);
        assertEquals(4096L, notRun.dataBytes());
        assertNull(notRun.algbwGBps(), "no modelled time, no rate");
        assertNull(notRun.busFactor(), "a mode without a bus factor");
        assertNull(notRun.busbwGBps());
    }

    @Test
    void everyRowOfARunCarriesItsJobsTermsAndTheJsonKeepsThemFlat() throws Exception {
        Scenario s = Scenarios.reference("paper-fig1-allreduce.conf");
        Report r = Scenarios.run(s);
        JobSpec job = s.jobs().get(0);
        for (Report.JobReport row : r.jobs()) {
            UseCase.Bandwidth bw = UseCases.bandwidth(s, job, row.mode());
            assertEquals(
                    bw.arrayBytes(), row.bandwidth().dataBytes(), row.mode().name());
            assertEquals(
                    bw.arrayBytes() / (row.timing().modeledMicros() * 1e-6) / 1e9,
                    row.bandwidth().algbwGBps(),
                    1e-9,
                    row.mode().name());
        }
        JsonNode ina = new ObjectMapper().valueToTree(r).get("jobs").get(0);
        assertEquals(Mode.INA.name(), ina.get("mode").asText());
        assertTrue(ina.has("dataBytes") && ina.has("algbwGBps"), ina.toString());
    }
}
